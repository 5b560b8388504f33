import CourierCore

/// The embedded flag store: one SQLite file (or `:memory:`) with definitions, versions and the
/// audit table. Its statements are `FlagSQL`'s, shared with `PostgresFlagStore`.
public final class SQLiteFlagStore: FlagSQLStore {
    private let pool: DatabasePool

    /// Opens (creating and migrating) the store at `path`; `:memory:` keeps it in memory.
    /// - Throws: `DatabaseError`.
    public init(path: String, options: Database.Options = .init()) throws {
        pool = try DatabasePool(path: path, options: options, migrator: SQLiteFlagSchema.migrator)
    }

    func reading<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pool.read { db in try body(db) }
    }

    func writing<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pool.transaction { db in try body(db) }
    }
}
