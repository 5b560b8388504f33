import CourierCore
import Pagination
import SyncWire

/// The embedded sync store: one SQLite file (or `:memory:`).
public final class SQLiteSyncStore: SyncStore {
    let pool: DatabasePool

    static let migrator = Migrator([
        .init(
            "create sync records, history, clients, results and owners",
            sql: """
                CREATE TABLE sync_records(
                    owner TEXT NOT NULL, collection TEXT NOT NULL, id TEXT NOT NULL,
                    version INTEGER NOT NULL, fields TEXT NOT NULL, deleted INTEGER NOT NULL,
                    hlc TEXT NOT NULL, position INTEGER NOT NULL, written_at INTEGER NOT NULL,
                    PRIMARY KEY(owner, collection, id)
                ) WITHOUT ROWID;
                CREATE UNIQUE INDEX sync_records_by_position ON sync_records(owner, position);
                CREATE TABLE sync_history(
                    owner TEXT NOT NULL, collection TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL,
                    fields TEXT NOT NULL, deleted INTEGER NOT NULL, hlc TEXT NOT NULL, written_at INTEGER NOT NULL,
                    PRIMARY KEY(owner, collection, id, version)
                ) WITHOUT ROWID;
                CREATE TABLE sync_clients(
                    owner TEXT NOT NULL, client_id TEXT NOT NULL, last_sequence INTEGER NOT NULL,
                    PRIMARY KEY(owner, client_id)
                ) WITHOUT ROWID;
                CREATE TABLE sync_results(
                    owner TEXT NOT NULL, op_id TEXT NOT NULL, client_id TEXT NOT NULL, sequence INTEGER NOT NULL,
                    result TEXT NOT NULL, PRIMARY KEY(owner, op_id)
                ) WITHOUT ROWID;
                CREATE INDEX sync_results_by_client ON sync_results(owner, client_id, sequence);
                CREATE TABLE sync_owners(
                    owner TEXT PRIMARY KEY, next_position INTEGER NOT NULL, horizon INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sync_meta(key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
                """)
    ])

    /// Answers kept per client for replays of lost acknowledgements, beyond the last sequence.
    static let keptResultsPerClient: Int64 = 10_000

    /// Opens (creating and migrating) the store at `path`; `:memory:` keeps it in memory.
    /// - Throws: `DatabaseError`.
    public init(path: String, options: Database.Options = .init()) throws {
        pool = try DatabasePool(path: path, options: options, migrator: Self.migrator)
    }

    /// See `SyncStore.push`.
    public func push(
        owner: String, clientID: String, operations: [SyncOperation], now: Int64,
        validate: (SyncOperation) -> String?
    ) throws -> [SyncOpResult] {
        try pool.transaction { db in
            var lastSequence =
                try db.query(
                    "SELECT last_sequence FROM sync_clients WHERE owner = ?1 AND client_id = ?2",
                    [.text(owner), .text(clientID)]
                ) { $0.int(0) }.first ?? 0
            var results: [SyncOpResult] = []
            for operation in operations {
                let stored = try db.query(
                    "SELECT result FROM sync_results WHERE owner = ?1 AND op_id = ?2",
                    [.text(owner), .text(operation.id)]
                ) { $0.text(0) ?? "" }.first
                if let stored {
                    results.append(try SyncOpResult(json: try JSONParser.parse(stored)))
                    continue
                }
                let result: SyncOpResult
                if operation.sequence <= lastSequence {
                    // Processed so long ago that its answer is gone: the current record is the
                    // best answer, and the client resolves against it.
                    let current = try Self.record(db, owner, operation.collection, operation.recordID)
                    result = SyncOpResult(opID: operation.id, outcome: .conflict(current: current, ancestor: nil))
                } else if let reason = validate(operation) {
                    result = SyncOpResult(opID: operation.id, outcome: .rejected(reason: reason))
                } else {
                    result = try apply(db, owner: owner, operation, now: now)
                }
                results.append(result)
                lastSequence = max(lastSequence, operation.sequence)
                try db.run(
                    "INSERT INTO sync_results(owner, op_id, client_id, sequence, result) VALUES (?1, ?2, ?3, ?4, ?5)",
                    [
                        .text(owner), .text(operation.id), .text(clientID), .integer(operation.sequence),
                        .text(JSONWriter.string(result.json)),
                    ])
            }
            try db.run(
                """
                INSERT INTO sync_clients(owner, client_id, last_sequence) VALUES (?1, ?2, ?3)
                ON CONFLICT(owner, client_id) DO UPDATE SET last_sequence = excluded.last_sequence
                """, [.text(owner), .text(clientID), .integer(lastSequence)])
            try db.run(
                "DELETE FROM sync_results WHERE owner = ?1 AND client_id = ?2 AND sequence < ?3",
                [.text(owner), .text(clientID), .integer(lastSequence - Self.keptResultsPerClient)])
            return results
        }
    }

    /// Applies one operation if the record is at its base version, or answers the conflict.
    private func apply(_ db: Database, owner: String, _ operation: SyncOperation, now: Int64) throws
        -> SyncOpResult
    {
        let current = try Self.record(db, owner, operation.collection, operation.recordID)
        guard (current?.version ?? 0) == operation.baseVersion else {
            let ancestor = try Self.historic(
                db, owner, operation.collection, operation.recordID, version: operation.baseVersion)
            return SyncOpResult(opID: operation.id, outcome: .conflict(current: current, ancestor: ancestor))
        }
        var next = SyncRecord(
            collection: operation.collection, id: operation.recordID, version: operation.baseVersion + 1,
            fields: current.map { $0.deleted ? [:] : $0.fields } ?? [:], hlc: operation.hlc)
        switch operation.kind {
        case .set(let fields):
            for (name, value) in fields {
                if value.isNull { next.fields[name] = nil } else { next.fields[name] = value }
            }
        case .delete:
            next.fields = [:]
            next.deleted = true
        }
        let position = try nextPosition(db, owner: owner)
        let text = JSONWriter.string(.object(next.fields))
        try db.run(
            """
            INSERT INTO sync_records(owner, collection, id, version, fields, deleted, hlc, position, written_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT(owner, collection, id) DO UPDATE SET version = excluded.version, fields = excluded.fields,
                deleted = excluded.deleted, hlc = excluded.hlc, position = excluded.position,
                written_at = excluded.written_at
            """,
            [
                .text(owner), .text(next.collection), .text(next.id), .integer(next.version), .text(text),
                .integer(next.deleted ? 1 : 0), .text(next.hlc), .integer(position), .integer(now),
            ])
        try db.run(
            """
            INSERT OR REPLACE INTO sync_history(owner, collection, id, version, fields, deleted, hlc, written_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """,
            [
                .text(owner), .text(next.collection), .text(next.id), .integer(next.version), .text(text),
                .integer(next.deleted ? 1 : 0), .text(next.hlc), .integer(now),
            ])
        return SyncOpResult(opID: operation.id, outcome: .applied(next))
    }

    private func nextPosition(_ db: Database, owner: String) throws -> Int64 {
        try db.run(
            """
            INSERT INTO sync_owners(owner, next_position, horizon) VALUES (?1, 2, 0)
            ON CONFLICT(owner) DO UPDATE SET next_position = next_position + 1
            """, [.text(owner)])
        return try db.query("SELECT next_position - 1 FROM sync_owners WHERE owner = ?1", [.text(owner)]) {
            $0.int(0)
        }.first ?? 1
    }

    /// See `SyncStore.changes`.
    public func changes(owner: String, since: Int64, limit: Int) throws -> SyncChanges {
        try pool.read { db in
            let horizon =
                try db.query("SELECT horizon FROM sync_owners WHERE owner = ?1", [.text(owner)]) {
                    $0.int(0)
                }.first ?? 0
            if since < horizon { throw SyncStoreError.horizonPassed }
            var rows = try db.query(
                """
                SELECT collection, id, version, fields, deleted, hlc, position FROM sync_records
                WHERE owner = ?1 AND position > ?2 ORDER BY position LIMIT ?3
                """, [.text(owner), .integer(since), .integer(Int64(limit) + 1)]
            ) { row in (try Self.decode(row), row.int(6)) }
            let hasMore = rows.count > limit
            if hasMore { rows.removeLast() }
            return SyncChanges(records: rows.map(\.0), position: rows.last?.1 ?? since, hasMore: hasMore)
        }
    }

    /// See `SyncStore.snapshot`.
    public func snapshot(owner: String) throws -> SyncSnapshot {
        try pool.read { db in
            let position =
                try db.query(
                    "SELECT next_position - 1 FROM sync_owners WHERE owner = ?1", [.text(owner)]
                ) { $0.int(0) }.first ?? 0
            let records = try db.query(
                """
                SELECT collection, id, version, fields, deleted, hlc FROM sync_records
                WHERE owner = ?1 AND deleted = 0 ORDER BY collection, id
                """, [.text(owner)]
            ) { try Self.decode($0) }
            return SyncSnapshot(records: records, position: position)
        }
    }

    /// See `SyncStore.latestPosition`.
    public func latestPosition(owner: String) throws -> Int64 {
        try pool.read { db in
            try db.query("SELECT next_position - 1 FROM sync_owners WHERE owner = ?1", [.text(owner)]) {
                $0.int(0)
            }.first ?? 0
        }
    }

    /// See `SyncStore.records`.
    public func records(owner: String, collection: String, below: String?, above: String?, limit: Int) throws
        -> [SyncRecord]
    {
        try pool.read { db in
            let columns = "SELECT collection, id, version, fields, deleted, hlc FROM sync_records"
            let live = "owner = ?1 AND collection = ?2 AND deleted = 0"
            if let above {
                return try db.query(
                    "\(columns) WHERE \(live) AND id > ?3 ORDER BY id LIMIT ?4",
                    [.text(owner), .text(collection), .text(above), .integer(Int64(limit))]
                ) { try Self.decode($0) }
            }
            return try db.query(
                "\(columns) WHERE \(live) AND id < ?3 ORDER BY id DESC LIMIT ?4",
                [.text(owner), .text(collection), .text(below ?? "\u{10FFFF}"), .integer(Int64(limit))]
            ) { try Self.decode($0) }
        }
    }

    /// See `SyncStore.collectTombstones`.
    public func collectTombstones(before: Int64) throws -> Int {
        try pool.transaction { db in
            try db.run(
                """
                UPDATE sync_owners SET horizon = max(horizon, (SELECT max(position) FROM sync_records r
                    WHERE r.owner = sync_owners.owner AND r.deleted = 1 AND r.written_at < ?1))
                WHERE EXISTS (SELECT 1 FROM sync_records r WHERE r.owner = sync_owners.owner AND r.deleted = 1
                    AND r.written_at < ?1)
                """, [.integer(before)])
            try db.run("DELETE FROM sync_records WHERE deleted = 1 AND written_at < ?1", [.integer(before)])
            let collected = db.changes
            try db.run("DELETE FROM sync_history WHERE written_at < ?1", [.integer(before)])
            return collected
        }
    }

    /// See `SyncStore.cursorKey`.
    public func cursorKey() throws -> [UInt8] {
        try pool.transaction { db in
            if let key = try db.query("SELECT value FROM sync_meta WHERE key = 'cursor_key'", [], row: { $0.bytes(0) })
                .first, key.count >= 32
            {
                return key
            }
            let key = PageCursorSigner.newKey()
            try db.run("INSERT OR REPLACE INTO sync_meta(key, value) VALUES ('cursor_key', ?1)", [.blob(key)])
            return key
        }
    }

    static func record(_ db: Database, _ owner: String, _ collection: String, _ id: String) throws -> SyncRecord? {
        try db.query(
            """
            SELECT collection, id, version, fields, deleted, hlc FROM sync_records
            WHERE owner = ?1 AND collection = ?2 AND id = ?3
            """, [.text(owner), .text(collection), .text(id)]
        ) { try decode($0) }.first
    }

    static func historic(_ db: Database, _ owner: String, _ collection: String, _ id: String, version: Int64) throws
        -> SyncRecord?
    {
        guard version > 0 else { return nil }
        return try db.query(
            """
            SELECT collection, id, version, fields, deleted, hlc FROM sync_history
            WHERE owner = ?1 AND collection = ?2 AND id = ?3 AND version = ?4
            """, [.text(owner), .text(collection), .text(id), .integer(version)]
        ) { try decode($0) }.first
    }

    static func decode(_ row: Row) throws -> SyncRecord {
        let fields = try JSONParser.parse(row.text(3) ?? "{}").objectValue ?? [:]
        return SyncRecord(
            collection: row.text(0) ?? "", id: row.text(1) ?? "", version: row.int(2), fields: fields,
            deleted: row.int(4) != 0, hlc: row.text(5) ?? "")
    }
}
