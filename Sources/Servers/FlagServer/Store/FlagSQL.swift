import CourierCore
import CourierPostgres

/// What both flag stores share: their statements (one schema, two engines) and how rows become
/// an environment or an audit entry. Each store only opens the transaction around them: a
/// SQLite pool's, or a PostgreSQL pool's.
enum FlagSQL {
    /// The environment's definitions by subject and key, or `nil` when it has none. One
    /// statement, so one snapshot on either engine.
    /// - Throws: the engine's error, or `JSONParser`'s when a stored definition is not JSON.
    static func environment(_ key: String, in db: some SQLConnection) throws -> StoredEnvironment? {
        let rows = try db.rows(
            """
            SELECT e.version, d.subject, d.definition FROM flag_environments e
            LEFT JOIN flag_definitions d ON d.env_key = e.env_key
            WHERE e.env_key = $1 ORDER BY d.subject, d.key
            """, [.text(key)]
        ) { row in (version: row.int(0), subject: row.text(1), definition: row.text(2)) }
        guard let first = rows.first else { return nil }
        var stored = StoredEnvironment(version: first.version, flags: [], segments: [])
        for row in rows {
            guard let subject = row.subject, let text = row.definition else { continue }
            let json = try JSONParser.parse(text)
            if subject == FlagChange.Subject.flag.rawValue {
                stored.flags.append(json)
            } else {
                stored.segments.append(json)
            }
        }
        return stored
    }

    /// Every environment's version, by key.
    /// - Throws: the engine's error.
    static func versions(in db: some SQLConnection) throws -> [String: Int64] {
        let rows = try db.rows("SELECT env_key, version FROM flag_environments", []) { row in
            (row.text(0) ?? "", row.int(1))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Makes and stores a change and its audit row; call it inside a transaction. The
    /// environment's row is written first (its version taken), which holds every other edit of
    /// the environment back until this transaction commits: on PostgreSQL by the row's lock, on
    /// SQLite by the write lock that `BEGIN IMMEDIATE` already holds. The read after it, a
    /// statement of its own, sees every edit committed before, so `make` works on what is stored.
    /// - Returns: the environment's new version and the change.
    /// - Throws: what `make` throws, the engine's error, or `JSONParser`'s for a stored definition
    ///   that is not JSON.
    static func edit(
        _ environment: String, atMilliseconds: Int64, in db: some SQLConnection,
        making make: (StoredEnvironment) throws -> FlagChange
    ) throws -> (version: Int64, change: FlagChange) {
        let version =
            try db.rows(
                """
                INSERT INTO flag_environments(env_key, version) VALUES ($1, 1)
                ON CONFLICT (env_key) DO UPDATE SET version = flag_environments.version + 1 RETURNING version
                """, [.text(environment)]
            ) { $0.int(0) }.first ?? 1
        var stored = try self.environment(environment, in: db) ?? StoredEnvironment(version: 0, flags: [], segments: [])
        stored.version = version - 1
        let change = try make(stored)
        let key: [SQLValue] = [.text(environment), .text(change.subject.rawValue), .text(change.key)]
        let before =
            try db.rows(
                "SELECT definition FROM flag_definitions WHERE env_key = $1 AND subject = $2 AND key = $3", key
            ) { $0.text(0) }.first ?? nil
        let after = SQLValue.text(JSONWriter.string(change.definition))
        try db.change(
            """
            INSERT INTO flag_definitions(env_key, subject, key, definition, updated_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (env_key, subject, key) DO UPDATE SET definition = excluded.definition,
                updated_at = excluded.updated_at
            """, key + [after, .integer(atMilliseconds)])
        try db.change(
            """
            INSERT INTO flag_audit(env_key, subject, key, action, before, after, version, at, actor)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            """,
            key + [
                .text(change.action), before.map(SQLValue.text) ?? .null, after, .integer(version),
                .integer(atMilliseconds), .text(change.actor),
            ])
        return (version, change)
    }

    /// The newest `limit` audit rows of `environment`.
    /// - Throws: the engine's error, or `JSONParser`'s when a stored definition is not JSON.
    static func audit(environment: String, limit: Int, in db: some SQLConnection) throws -> [FlagAuditEntry] {
        try db.rows(
            """
            SELECT id, subject, key, action, before, after, version, at, actor FROM flag_audit
            WHERE env_key = $1 ORDER BY id DESC LIMIT $2
            """, [.text(environment), .integer(Int64(limit))]
        ) { row in
            FlagAuditEntry(
                id: row.int(0), environment: environment, subject: row.text(1) ?? "", key: row.text(2) ?? "",
                action: row.text(3) ?? "", before: try row.text(4).map { try JSONParser.parse($0) },
                after: try JSONParser.parse(row.text(5) ?? "null"), version: row.int(6), atMilliseconds: row.int(7),
                actor: row.text(8))
        }
    }
}

/// A flag store whose statements are `FlagSQL`'s: it only says how it reads (one snapshot) and
/// writes (one transaction) on its engine.
protocol FlagSQLStore: FlagStore {
    /// Runs `body` on a connection that sees one snapshot.
    func reading<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` in one transaction.
    func writing<T>(_ body: (any SQLConnection) throws -> T) throws -> T
}

extension FlagSQLStore {
    /// See `FlagStore.environment(_:)`.
    public func environment(_ key: String) throws -> StoredEnvironment? {
        try reading { db in try FlagSQL.environment(key, in: db) }
    }

    /// See `FlagStore.edit(_:atMilliseconds:making:)`.
    public func edit(
        _ environment: String, atMilliseconds: Int64, making make: (StoredEnvironment) throws -> FlagChange
    ) throws -> (version: Int64, change: FlagChange) {
        try writing { db in try FlagSQL.edit(environment, atMilliseconds: atMilliseconds, in: db, making: make) }
    }

    /// See `FlagStore.versions()`.
    public func versions() throws -> [String: Int64] {
        try reading { db in try FlagSQL.versions(in: db) }
    }

    /// See `FlagStore.audit(environment:limit:)`.
    public func audit(environment: String, limit: Int) throws -> [FlagAuditEntry] {
        try reading { db in try FlagSQL.audit(environment: environment, limit: limit, in: db) }
    }
}

extension SQLConnection {
    /// Runs a query written with `$n` parameters and maps each row.
    func rows<T>(_ sql: String, _ arguments: [SQLValue], _ row: (any DatabaseRow) throws -> T) throws -> [T] {
        try query(SQLStatement(sql), arguments) { try row($0) }
    }

    /// Runs a statement written with `$n` parameters that returns no rows.
    func change(_ sql: String, _ arguments: [SQLValue]) throws {
        try run(SQLStatement(sql), arguments)
    }
}
