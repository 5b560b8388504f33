import CourierCore
import SyncWire
import Synchronization

/// The client's SQLite store: records with their server base (the last server copy, the
/// ancestor of local edits), the oplog of pending operations, the dead-letter table, and the
/// cursor and client id.
final class LocalStore: Sendable {
    let pool: DatabasePool
    /// The last oplog sequence handed out. Kept in memory (read once at open from the oplog and
    /// the highest retired sequence) so a local write does not pay for a counter row; a write
    /// that rolls back leaves a gap, which is harmless: sequences only have to increase.
    private let lastSequence: Mutex<Int64>

    static let migrator = Migrator([
        .init(
            "create local records, oplog, dead letters and meta",
            sql: """
                CREATE TABLE records(
                    collection TEXT NOT NULL, id TEXT NOT NULL, fields TEXT NOT NULL, deleted INTEGER NOT NULL,
                    version INTEGER NOT NULL, base_fields TEXT, base_deleted INTEGER NOT NULL DEFAULT 0,
                    hlc TEXT NOT NULL,
                    PRIMARY KEY(collection, id)
                ) WITHOUT ROWID;
                CREATE TABLE oplog(
                    collection TEXT NOT NULL, record_id TEXT NOT NULL, sequence INTEGER NOT NULL,
                    op_id TEXT NOT NULL, fields TEXT, base_version INTEGER NOT NULL, hlc TEXT NOT NULL,
                    PRIMARY KEY(collection, record_id, sequence)
                ) WITHOUT ROWID;
                CREATE TABLE dead_letters(
                    op_id TEXT PRIMARY KEY, collection TEXT NOT NULL, record_id TEXT NOT NULL, fields TEXT,
                    reason TEXT NOT NULL
                );
                CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                """)
    ])

    init(path: String) throws {
        var options = Database.Options()
        options.synchronous = "NORMAL"
        pool = try DatabasePool(path: path, options: options, migrator: Self.migrator)
        let last = try pool.read { db in
            try db.query(
                """
                SELECT max(coalesce((SELECT max(sequence) FROM oplog), 0),
                           coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'retired_sequence'), 0))
                """
            ) { $0.int(0) }.first ?? 0
        }
        lastSequence = Mutex(last)
    }

    // MARK: meta

    static func meta(_ db: Database, _ key: String) throws -> String? {
        try db.query("SELECT value FROM meta WHERE key = ?1", [.text(key)]) { $0.text(0) ?? "" }.first
    }

    static func setMeta(_ db: Database, _ key: String, _ value: String) throws {
        try db.run("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)", [.text(key), .text(value)])
    }

    // MARK: records

    struct Row {
        var fields: [String: JSONValue]
        var deleted: Bool
        var version: Int64
        var base: RecordState?
        var hlc: String
    }

    static func row(_ db: Database, _ collection: String, _ id: String) throws -> Row? {
        try db.query(
            "SELECT fields, deleted, version, base_fields, base_deleted, hlc FROM records WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        ) { row in
            let base = try row.text(3).map { text in
                RecordState(
                    fields: try JSONParser.parse(text).objectValue ?? [:], deleted: row.int(4) != 0, hlc: "")
            }
            return Row(
                fields: try JSONParser.parse(row.text(0) ?? "{}").objectValue ?? [:], deleted: row.int(1) != 0,
                version: row.int(2), base: base, hlc: row.text(5) ?? "")
        }.first
    }

    /// - Parameter encodedFields: `row.fields` already encoded, when the caller has them.
    static func save(_ db: Database, _ collection: String, _ id: String, _ row: Row, encodedFields: String? = nil)
        throws
    {
        try db.run(
            """
            INSERT OR REPLACE INTO records(collection, id, fields, deleted, version, base_fields, base_deleted, hlc)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """,
            [
                .text(collection), .text(id), .text(encodedFields ?? JSONWriter.string(.object(row.fields))),
                .integer(row.deleted ? 1 : 0), .integer(row.version),
                row.base.map { .text(JSONWriter.string(.object($0.fields))) } ?? .null,
                .integer(row.base?.deleted == true ? 1 : 0), .text(row.hlc),
            ])
    }

    /// Makes the server's record the local truth and the base (a fast-forward).
    static func adopt(_ db: Database, _ record: SyncRecord) throws {
        let state = RecordState(fields: record.fields, deleted: record.deleted, hlc: record.hlc)
        try save(
            db, record.collection, record.id,
            Row(
                fields: record.fields, deleted: record.deleted, version: record.version, base: state,
                hlc: record.hlc))
    }

    static func pendingCount(_ db: Database, _ collection: String, _ id: String) throws -> Int64 {
        try db.query(
            "SELECT count(*) FROM oplog WHERE collection = ?1 AND record_id = ?2", [.text(collection), .text(id)]
        ) { $0.int(0) }.first ?? 0
    }

    func records(collection: String) throws -> [LocalRecord] {
        try pool.read { db in
            try db.query(
                """
                SELECT r.id, r.fields, r.version, EXISTS(SELECT 1 FROM oplog o WHERE o.collection = r.collection
                    AND o.record_id = r.id)
                FROM records r WHERE r.collection = ?1 AND r.deleted = 0 ORDER BY r.id
                """, [.text(collection)]
            ) { row in
                LocalRecord(
                    collection: collection, id: row.text(0) ?? "",
                    fields: try JSONParser.parse(row.text(1) ?? "{}").objectValue ?? [:], version: row.int(2),
                    isPending: row.int(3) != 0)
            }
        }
    }

    /// One live record as the app sees it, or `nil` when absent or deleted.
    static func localRecord(_ db: Database, _ collection: String, _ id: String) throws -> LocalRecord? {
        guard let row = try row(db, collection, id), !row.deleted else { return nil }
        return LocalRecord(
            collection: collection, id: id, fields: row.fields, version: row.version,
            isPending: try pendingCount(db, collection, id) > 0)
    }

    /// `rows` (sorted by id, as `records(collection:)` returns them) with the records `ids`
    /// read again, in one snapshot and one query: updated, inserted in order, or removed when
    /// deleted. `rows` changes in place, so an observer whose last answer was let go pays no copy.
    func merge(_ ids: Set<ExactText>, into rows: inout [LocalRecord], collection: String) throws {
        guard !ids.isEmpty else { return }
        let fresh = try pool.read { db in
            try db.query(
                """
                SELECT r.id, r.fields, r.version, EXISTS(SELECT 1 FROM oplog o WHERE o.collection = r.collection
                    AND o.record_id = r.id)
                FROM records r WHERE r.collection = ?1 AND r.deleted = 0
                    AND r.id IN (SELECT value FROM json_each(?2))
                """, [.text(collection), .text(JSONWriter.string(.array(ids.map { .string($0.text) })))]
            ) { row in
                LocalRecord(
                    collection: collection, id: row.text(0) ?? "",
                    fields: try JSONParser.parse(row.text(1) ?? "{}").objectValue ?? [:], version: row.int(2),
                    isPending: row.int(3) != 0)
            }
        }
        let live = Dictionary(fresh.map { (ExactText($0.id), $0) }, uniquingKeysWith: { first, _ in first })
        rows.apply(Dictionary(uniqueKeysWithValues: ids.map { ($0, live[$0]) }))
    }

    /// `RecordSetChecksum` of the server copies this client holds.
    func baseChecksum() throws -> String {
        try pool.read { db in try Self.baseChecksum(db) }
    }

    static func baseChecksum(_ db: Database) throws -> String {
        let keys = try db.query(
            "SELECT collection, id, version FROM records WHERE version > 0 AND base_fields IS NOT NULL AND base_deleted = 0"
        ) { row in (row.text(0) ?? "", row.text(1) ?? "", row.int(2)) }
        return RecordSetChecksum.of(keys: keys)
    }

    // MARK: oplog

    /// - Parameter encodedFields: `fields` already encoded, when the caller has them.
    func append(
        _ db: Database, collection: String, id: String, fields: [String: JSONValue]?, baseVersion: Int64,
        hlc: String, encodedFields: String? = nil
    ) throws {
        let sequence = lastSequence.withLock { last in
            last += 1
            return last
        }
        try db.run(
            """
            INSERT INTO oplog(sequence, op_id, collection, record_id, fields, base_version, hlc)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """,
            [
                .integer(sequence), .text(Identifier.uuid()), .text(collection), .text(id),
                fields.map { .text(encodedFields ?? JSONWriter.string(.object($0))) } ?? .null, .integer(baseVersion),
                .text(hlc),
            ])
    }

    /// Removes pending operations, remembering the highest sequence removed: a sequence the
    /// server may have seen is never handed out again (cheaper than `AUTOINCREMENT`, which
    /// writes its counter page on every local write) at the next open.
    static func retire(_ db: Database, collection: String, id: String, sequence: Int64? = nil) throws {
        var filter = "collection = ?1 AND record_id = ?2"
        var arguments: [SQLValue] = [.text(collection), .text(id)]
        if let sequence {
            filter += " AND sequence = ?3"
            arguments.append(.integer(sequence))
        }
        try db.run(
            """
            INSERT INTO meta(key, value) SELECT 'retired_sequence', max(sequence) FROM oplog WHERE \(filter)
                HAVING max(sequence) IS NOT NULL
            ON CONFLICT(key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))
            """, arguments)
        try db.run("DELETE FROM oplog WHERE \(filter)", arguments)
    }

    /// The next batch: pending operations in order, at most one per record (a second operation on
    /// a record waits for the first one's new version), stopping at `limit`.
    func nextBatch(limit: Int) throws -> [SyncOperation] {
        try pool.read { db in
            let rows = try db.query(
                "SELECT sequence, op_id, collection, record_id, fields, base_version, hlc FROM oplog ORDER BY sequence LIMIT ?1",
                [.integer(Int64(limit))]
            ) { row in
                let kind: SyncOperation.Kind =
                    try row.text(4).map { .set(try JSONParser.parse($0).objectValue ?? [:]) } ?? .delete
                return SyncOperation(
                    id: row.text(1) ?? "", sequence: row.int(0), collection: row.text(2) ?? "",
                    recordID: row.text(3) ?? "", kind: kind, baseVersion: row.int(5), hlc: row.text(6) ?? "")
            }
            var seen: Set<[String]> = []
            var batch: [SyncOperation] = []
            for operation in rows {
                // Stop, not skip: a batch must be a run of consecutive sequences, or the server's
                // "last processed sequence" would cover an operation it never saw.
                guard seen.insert([operation.collection, operation.recordID]).inserted else { break }
                batch.append(operation)
            }
            return batch
        }
    }

    static func pendingOperations(_ db: Database, _ collection: String, _ id: String) throws -> [(String, String)] {
        try db.query(
            "SELECT op_id, hlc FROM oplog WHERE collection = ?1 AND record_id = ?2 ORDER BY sequence",
            [.text(collection), .text(id)]
        ) { ($0.text(0) ?? "", $0.text(1) ?? "") }
    }

    func deadLetters() throws -> [DeadLetter] {
        try pool.read { db in
            try db.query("SELECT op_id, collection, record_id, fields, reason FROM dead_letters ORDER BY rowid") {
                row in
                DeadLetter(
                    opID: row.text(0) ?? "", collection: row.text(1) ?? "", recordID: row.text(2) ?? "",
                    fields: try row.text(3).map { try JSONParser.parse($0).objectValue ?? [:] },
                    reason: row.text(4) ?? "")
            }
        }
    }

    func pendingOperationCount() throws -> Int {
        try pool.read { db in Int(try db.query("SELECT count(*) FROM oplog") { $0.int(0) }.first ?? 0) }
    }
}
