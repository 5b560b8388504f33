import CourierCore
import SignalProtocol

/// Contact trust records in SQLite (CourierCore's `DatabasePool`): one row per contact with the
/// recorded key, the verification and a pending change. Public keys only: nothing here is secret.
///
/// Standalone it opens its own file; inside the messenger's database, add `migrations` to that
/// database's `Migrator` and pass its pool to `init(pool:)`.
public final class SQLiteContactTrustStore: ContactTrustStore {
    /// The schema, for a database that holds other tables too.
    public static let migrations: [Migrator.Migration] = [
        .init(
            "create messenger contact trust",
            sql: """
                CREATE TABLE messenger_contact_trust (
                    contact TEXT PRIMARY KEY NOT NULL,
                    identity_key BLOB NOT NULL,
                    verified INTEGER NOT NULL,
                    pending_previous_key BLOB,
                    pending_was_verified INTEGER,
                    pending_blocks INTEGER
                ) WITHOUT ROWID
                """)
    ]

    private let pool: DatabasePool

    /// Opens (creating if needed) the store at `path`.
    /// - Throws: `DatabaseError` or `DatabaseSchemaError`.
    public convenience init(path: String) throws {
        try self.init(pool: DatabasePool(path: path, migrator: Migrator(Self.migrations)))
    }

    /// Uses `pool`, whose migrator has applied `migrations`.
    public init(pool: DatabasePool) {
        self.pool = pool
    }

    /// The record for `contact`, or nil.
    /// - Throws: `DatabaseError`; `SignalProtocolError.invalidKey` for a stored key that no longer decodes.
    public func record(for contact: String) throws -> ContactTrustRecord? {
        let rows = try pool.read { db in
            try db.query(
                """
                SELECT identity_key, verified, pending_previous_key, pending_was_verified, pending_blocks
                FROM messenger_contact_trust WHERE contact = ?
                """, [.text(contact)]
            ) { row in
                (
                    row.bytes(0), row.int(1) != 0, row.isNull(2) ? nil : row.bytes(2), row.int(3) != 0,
                    row.int(4) != 0
                )
            }
        }
        guard let (keyBytes, verified, previousBytes, wasVerified, blocks) = rows.first else { return nil }
        let key = try IdentityKey(serialized: keyBytes)
        let pending = try previousBytes.map {
            IdentityChangeWarning(
                contact: contact, previousKey: try IdentityKey(serialized: $0), newKey: key, wasVerified: wasVerified,
                blocksSending: blocks)
        }
        return ContactTrustRecord(
            contact: contact, identityKey: key, verification: verified ? .verified : .unverified,
            pendingChange: pending)
    }

    /// Inserts or replaces `record`.
    /// - Throws: `DatabaseError`.
    public func save(_ record: ContactTrustRecord) throws {
        let pending = record.pendingChange
        try pool.write { db in
            try db.run(
                """
                INSERT OR REPLACE INTO messenger_contact_trust
                    (contact, identity_key, verified, pending_previous_key, pending_was_verified, pending_blocks)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(record.contact), .blob(record.identityKey.serialized),
                    .integer(record.verification == .verified ? 1 : 0),
                    pending.map { .blob($0.previousKey.serialized) } ?? .null,
                    pending.map { .integer($0.wasVerified ? 1 : 0) } ?? .null,
                    pending.map { .integer($0.blocksSending ? 1 : 0) } ?? .null,
                ])
        }
    }
}
