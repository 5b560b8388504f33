import CourierCore

/// The embedded flag store: one SQLite file (or `:memory:`) with definitions, versions and the
/// audit table. Its statements are `FlagSQL`'s, shared with `PostgresFlagStore`.
public final class SQLiteFlagStore: FlagSQLStore {
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

    func reading<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pool.read { db in try body(db) }
    }

    func writing<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pool.transaction { db in try body(db) }
    }
}
