import CourierCore
import CourierPostgres

/// Attachment ciphertext as `bytea` rows, one per uploaded piece, in the messenger's PostgreSQL
/// database: any instance can take the next piece of an upload or serve a download. Parts go
/// with their attachment's row when it expires (`ON DELETE CASCADE`).
public struct PostgresAttachmentStore: AttachmentStore {
    let pool: PostgresPool

    public func write(_ bytes: [UInt8], at offset: Int64, to id: String) throws(MessengerStoreError) {
        try storing {
            try pool.withConnection { db in
                try db.run(
                    """
                    INSERT INTO attachment_parts(attachment_id, start_offset, bytes) VALUES ($1, $2, $3)
                    ON CONFLICT(attachment_id, start_offset) DO UPDATE SET bytes = excluded.bytes
                    """, [.text(id), .integer(offset), .blob(bytes)])
            }
        }
    }

    public func read(_ id: String) throws(MessengerStoreError) -> [UInt8]? {
        let parts = try storing {
            try pool.read { db in
                try db.query(
                    "SELECT bytes FROM attachment_parts WHERE attachment_id = $1 ORDER BY start_offset", [.text(id)]
                ) { $0.bytes(0) }
            }
        }
        return parts.isEmpty ? nil : Array(parts.joined())
    }

    public func remove(_ id: String) {
        _ = try? pool.withConnection { db in
            try db.run("DELETE FROM attachment_parts WHERE attachment_id = $1", [.text(id)])
        }
    }
}

extension PostgresMessengerStore {
    /// Attachment ciphertext in the same database, for `MessengerServer(attachments:)`.
    public var attachments: PostgresAttachmentStore { PostgresAttachmentStore(pool: pool) }
}
