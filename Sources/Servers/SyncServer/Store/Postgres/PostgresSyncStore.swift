import CourierCore
import CourierPostgres

/// The sync store on PostgreSQL, for several server instances sharing one database: the same
/// tables, statements and behaviour as `SQLiteSyncStore` (the logic is written once, against
/// `SQLConnection`, and the same tests run against both), with the concurrency PostgreSQL
/// needs spelled out:
/// - a push locks its owner's row in `sync_owners` first and takes feed positions from that
///   row's counter, so pushes for one owner run one after the other and positions become
///   visible in commit order: a pull's cursor never skips a row that commits late;
/// - the tombstone collection runs on one instance at a time (`pg_try_advisory_lock`).
///
/// The tables and columns are the SQLite schema's (`bigint`, `bytea`, `text`); collections and
/// ids compare byte by byte (`COLLATE "C"`), as in SQLite, whatever the database's locale, so
/// snapshots and list pages come in the same order on both engines.
///
/// Its methods block the calling thread for the round trips to the server, as the SQLite store
/// blocks for its disk.
public final class PostgresSyncStore: SyncDatabaseStore {
    let pool: PostgresPool

    /// Connects to `url` (`postgres://…`) with up to `connections` connections and migrates the
    /// sync tables.
    /// - Throws: `PostgresError`, or `DatabaseSchemaError` when a newer build migrated the database.
    public init(url: String, connections: Int = 8) throws {
        pool = try PostgresPool(url: url, size: connections, migrator: PostgresSyncSchema.migrator)
    }

    package func writing<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try pool.write(body)
    }

    package func reading<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// See `SyncStore.collectTombstones`. Of the instances sharing the database, one collects at
    /// a time: a call while another instance collects returns 0 at once (that one moves the
    /// horizons).
    public func collectTombstones(before: Int64) throws -> Int {
        try pool.ifNoOtherInstanceRuns("sync.tombstones") { db in
            try db.transaction { try db.collectTombstones(before: before) }
        } ?? 0
    }
}
