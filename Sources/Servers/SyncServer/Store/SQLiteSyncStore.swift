import CourierCore

/// The embedded sync store: one SQLite file (or `:memory:`). Its logic and SQL are shared with
/// `PostgresSyncStore` (`SyncDatabaseStore`, `SQLConnection`).
public final class SQLiteSyncStore: SyncDatabaseStore {
    let pool: DatabasePool

    /// Opens (creating and migrating) the store at `path`; `:memory:` keeps it in memory.
    /// - Throws: `DatabaseError`.
    public init(path: String, options: Database.Options = .init()) throws {
        pool = try DatabasePool(path: path, options: options, migrator: SQLiteSyncSchema.migrator)
    }

    package func writing<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.transaction(body)
    }

    package func reading<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }
}
