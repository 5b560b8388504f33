import CourierCore
import CourierPostgres

/// The flag store on PostgreSQL, for several server instances sharing one database: the same
/// statements as `SQLiteFlagStore` (`FlagSQL`) and the same behaviour (the same tests run
/// against both).
///
/// An edit upserts its environment's row first (`RETURNING version`), which locks the row until
/// the edit commits: concurrent edits of one environment, from any instance, take versions one
/// after the other. Its methods block the calling thread for the round trips to the server, as
/// the SQLite store blocks for its disk.
///
/// ```swift
/// let flags = FlagService(store: try PostgresFlagStore(url: "postgres://courier@db/courier"))
/// ```
public final class PostgresFlagStore: FlagSQLStore {
    let pool: PostgresPool

    /// How long an edit waits for another edit of its environment before it fails.
    let lockTimeoutMilliseconds: Int

    /// Connects to `url` (`postgres://…`) with up to `connections` connections and migrates the
    /// flag tables.
    /// - Parameter lockTimeout: how long an edit waits for another edit of its environment (on
    ///   any instance) to commit before it fails with `PostgresError.isLockTimeout`.
    /// - Throws: `PostgresError`, or `DatabaseSchemaError` when a newer build migrated the database.
    public init(url: String, connections: Int = 4, lockTimeout: Duration = .seconds(10)) throws {
        pool = try PostgresPool(url: url, size: connections, migrator: PostgresFlagSchema.migrator)
        let (seconds, attoseconds) = lockTimeout.components
        lockTimeoutMilliseconds = max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    // One statement per read (`FlagSQL`): one snapshot without a transaction's round trips.
    func reading<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pool.withConnection { db in try body(db) }
    }

    /// An edit's read sees what the edits it waited for stored only at `READ COMMITTED` (a
    /// snapshot per statement), so the transaction asks for it, whatever the database's default:
    /// at a stricter level the second of two concurrent edits would fail instead of waiting. An
    /// edit elsewhere that holds the environment longer than the lock timeout makes this one
    /// fail rather than wait for ever.
    func writing<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pool.write { db in
            try db.execute(
                "SET TRANSACTION ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout = \(lockTimeoutMilliseconds)")
            return try body(db)
        }
    }
}
