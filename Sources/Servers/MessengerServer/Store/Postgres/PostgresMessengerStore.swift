import CourierCore
import CourierPostgres

/// The messenger store on PostgreSQL, for several server instances sharing one database: the
/// same logic as `SQLiteMessengerStore` (`MessengerSQL`, and the same tests run against both),
/// with the concurrency PostgreSQL needs spelled out:
/// - a one-time prekey is taken with `FOR UPDATE SKIP LOCKED`, so concurrent fetches each get a
///   different key instead of most of them getting none;
/// - mailbox ids come from a per-device counter row (`PostgresMessengerSchema`), so the catch-up
///   cursor sees rows in commit order;
/// - sends keep the group commit, each in a savepoint; a batch that loses a deadlock is retried.
///
/// Its methods block the calling thread for the round trips to the server, as the SQLite store
/// blocks for its disk: request handlers run on the HTTP engine's own threads, and the delivery
/// sockets read through `BlockingQueues`.
public final class PostgresMessengerStore: MessengerDatabaseStore {
    let pool: PostgresPool
    let batcher = SendBatcher()

    /// Connects to `url` (`postgres://…`) with up to `connections` connections and migrates the
    /// messenger's tables.
    /// - Throws: `PostgresError`, or `DatabaseSchemaError` when a newer build migrated the database.
    public init(url: String, connections: Int = 8) throws {
        pool = try PostgresPool(url: url, size: connections, migrator: PostgresMessengerSchema.migrator)
    }

    package func writing<T>(_ body: (PostgresConnection) throws -> T) throws -> T { try pool.write(body) }

    package func reading<T>(_ body: (PostgresConnection) throws -> T) throws -> T { try pool.withConnection(body) }

    package func writingOne<T>(_ body: (PostgresConnection) throws -> T) throws -> T { try pool.withConnection(body) }

    /// Deletes what expired, on one instance at a time: while another instance runs it, this
    /// round does nothing and reports nothing.
    public func expire(now: Int64) throws(MessengerStoreError) -> (envelopes: Int, attachments: [String]) {
        try storing {
            try pool.ifNoOtherInstanceRuns("messenger.expiry") { db in
                try db.transaction { try db.expire(now: now) }
            } ?? (0, [])
        }
    }
}
