import CourierCore

/// The embedded flag store: one SQLite file (or `:memory:`) with definitions, versions and the
/// audit table.
public final class SQLiteFlagStore: FlagStore {
    private let pool: DatabasePool

    static let migrator = Migrator([
        .init(
            "create flag environments, definitions and audit",
            sql: """
                CREATE TABLE flag_environments(
                    env_key TEXT PRIMARY KEY,
                    version INTEGER NOT NULL
                );
                CREATE TABLE flag_definitions(
                    env_key TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    key TEXT NOT NULL,
                    definition TEXT NOT NULL,
                    updated_at INTEGER NOT NULL,
                    PRIMARY KEY(env_key, subject, key)
                ) WITHOUT ROWID;
                CREATE TABLE flag_audit(
                    id INTEGER PRIMARY KEY,
                    env_key TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    key TEXT NOT NULL,
                    action TEXT NOT NULL,
                    before TEXT,
                    after TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    at INTEGER NOT NULL
                );
                CREATE INDEX flag_audit_by_env ON flag_audit(env_key, id);
                """)
    ])

    /// Opens (creating and migrating) the store at `path`; `:memory:` keeps it in memory.
    /// - Throws: `DatabaseError`.
    public init(path: String, options: Database.Options = .init()) throws {
        pool = try DatabasePool(path: path, options: options, migrator: Self.migrator)
    }

    /// See `FlagStore.environment(_:)`.
    public func environment(_ key: String) throws -> StoredEnvironment? {
        try pool.read { db in
            let versions = try db.query("SELECT version FROM flag_environments WHERE env_key = ?1", [.text(key)]) {
                $0.int(0)
            }
            guard let version = versions.first else { return nil }
            var flags: [JSONValue] = []
            var segments: [JSONValue] = []
            let rows = try db.query(
                "SELECT subject, definition FROM flag_definitions WHERE env_key = ?1 ORDER BY subject, key",
                [.text(key)]
            ) { row in (row.text(0) ?? "", row.text(1) ?? "null") }
            for (subject, text) in rows {
                let json = try JSONParser.parse(text)
                if subject == FlagChange.Subject.flag.rawValue { flags.append(json) } else { segments.append(json) }
            }
            return StoredEnvironment(version: version, flags: flags, segments: segments)
        }
    }

    /// See `FlagStore.apply(_:environment:atMilliseconds:)`.
    public func apply(_ change: FlagChange, environment: String, atMilliseconds: Int64) throws -> Int64 {
        try pool.transaction { db in
            try db.run(
                """
                INSERT INTO flag_environments(env_key, version) VALUES (?1, 1)
                ON CONFLICT(env_key) DO UPDATE SET version = version + 1
                """, [.text(environment)])
            let version =
                try db.query("SELECT version FROM flag_environments WHERE env_key = ?1", [.text(environment)]) {
                    $0.int(0)
                }.first ?? 1
            let before =
                try db.query(
                    "SELECT definition FROM flag_definitions WHERE env_key = ?1 AND subject = ?2 AND key = ?3",
                    [.text(environment), .text(change.subject.rawValue), .text(change.key)]
                ) { $0.text(0) }.first ?? nil
            let after = JSONWriter.string(change.definition)
            try db.run(
                """
                INSERT INTO flag_definitions(env_key, subject, key, definition, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT(env_key, subject, key) DO UPDATE SET definition = excluded.definition,
                    updated_at = excluded.updated_at
                """,
                [
                    .text(environment), .text(change.subject.rawValue), .text(change.key), .text(after),
                    .integer(atMilliseconds),
                ])
            try db.run(
                """
                INSERT INTO flag_audit(env_key, subject, key, action, before, after, version, at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """,
                [
                    .text(environment), .text(change.subject.rawValue), .text(change.key), .text(change.action),
                    before.map(SQLValue.text) ?? .null, .text(after), .integer(version), .integer(atMilliseconds),
                ])
            return version
        }
    }

    /// See `FlagStore.audit(environment:limit:)`.
    public func audit(environment: String, limit: Int) throws -> [FlagAuditEntry] {
        try pool.read { db in
            try db.query(
                """
                SELECT id, subject, key, action, before, after, version, at FROM flag_audit
                WHERE env_key = ?1 ORDER BY id DESC LIMIT ?2
                """, [.text(environment), .integer(Int64(limit))]
            ) { row in
                FlagAuditEntry(
                    id: row.int(0), environment: environment, subject: row.text(1) ?? "", key: row.text(2) ?? "",
                    action: row.text(3) ?? "", before: try row.text(4).map { try JSONParser.parse($0) },
                    after: try JSONParser.parse(row.text(5) ?? "null"), version: row.int(6), atMilliseconds: row.int(7))
            }
        }
    }
}
