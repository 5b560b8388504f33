import CourierCore
import Foundation
import Synchronization

/// Connections to one PostgreSQL database shared across threads: at most `size` open at once,
/// each used by one caller at a time; a caller beyond that waits for one to come back.
///
/// `write` runs its closure in one transaction (`connection.savepoint` nests inside it); `read`
/// in a read-only one. The async `write` and `read` run on the pool's own threads (one serial
/// queue per connection), so a task waiting for the network suspends instead of holding a thread
/// of Swift's cooperative pool. A connection found broken is closed and replaced on next use.
///
/// Keep `size` × instances below the server's `max_connections` (100 by default).
public final class PostgresPool: Sendable {
    /// The database's address, as given.
    public let url: String
    /// The most connections open at once.
    public let size: Int
    private let state: Mutex<PoolState>
    private let available: NSCondition = NSCondition()
    private let queues: BlockingQueues

    private struct PoolState: ~Copyable {
        var idle: [ConnectionBox] = []
        var open = 0
    }

    /// Opens one connection to check the address, then runs `migrator` on it.
    /// - Throws: `PostgresError` when the server cannot be reached or a migration fails.
    public init(url: String, size: Int = 8, migrator: PostgresMigrator? = nil) throws {
        self.url = url
        self.size = max(1, size)
        queues = BlockingQueues(label: "courier.postgres", count: max(1, size))
        let first = try PostgresConnection(url: url)
        try migrator?.migrate(first)
        state = Mutex(PoolState(idle: [ConnectionBox(first)], open: 1))
    }

    /// Runs `body` with a connection of its own, outside any transaction. Blocks the calling
    /// thread while it waits for a connection and for the server: from async code use the async
    /// variant.
    /// - Throws: what `body` throws; `PostgresError` when no connection can be opened.
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let box = try checkOut()
        defer { checkIn(box) }
        return try body(box.connection)
    }

    /// Runs `body` in one transaction: all of it commits or none of it does.
    /// - Throws: what `body` throws (the transaction rolls back), or `PostgresError`.
    public func write<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { connection in try connection.transaction { try body(connection) } }
    }

    /// Runs `body` in a read-only transaction, so every query in it sees one snapshot.
    /// - Throws: what `body` throws, or `PostgresError`.
    public func read<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { connection in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                let value = try body(connection)
                try connection.execute("COMMIT")
                return value
            } catch {
                if connection.isHealthy { try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// `withConnection` on one of the pool's own threads.
    /// - Throws: what `body` throws, or `PostgresError`.
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await offPool { try self.withConnection(body) }
    }

    /// `write` on one of the pool's own threads: the task suspends while libpq blocks.
    /// - Throws: what `body` throws (the transaction rolls back), or `PostgresError`.
    public func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await offPool { try self.write(body) }
    }

    /// `read` on one of the pool's own threads.
    /// - Throws: what `body` throws, or `PostgresError`.
    public func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await offPool { try self.read(body) }
    }

    private func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await queues.run(work)
    }

    private func checkOut() throws -> ConnectionBox {
        available.lock()
        while true {
            let taken: ConnectionBox?? = state.withLock { state in
                if let box = state.idle.popLast() { return .some(box) }
                if state.open < size {
                    state.open += 1
                    return .some(nil)
                }
                return nil
            }
            switch taken {
            case .some(.some(let box)):
                available.unlock()
                if box.connection.isHealthy { return box }
                return try replace()
            case .some(.none):
                available.unlock()
                return try replace()
            case .none:
                available.wait()
            }
        }
    }

    /// Opens a connection for a slot already counted as open; gives the slot back on failure.
    private func replace() throws -> ConnectionBox {
        do {
            return ConnectionBox(try PostgresConnection(url: url))
        } catch {
            state.withLock { $0.open -= 1 }
            available.lock()
            available.signal()
            available.unlock()
            throw error
        }
    }

    private func checkIn(_ box: ConnectionBox) {
        let healthy = box.connection.isHealthy && !box.connection.isInTransaction
        state.withLock { state in
            if healthy { state.idle.append(box) } else { state.open -= 1 }
        }
        available.lock()
        available.signal()
        available.unlock()
    }
}

/// A connection passed between the pool's threads.
private final class ConnectionBox: @unchecked Sendable {
    // @unchecked: the pool hands a box to one caller at a time (checked out under its lock, not
    // touched again until checked back in), so the connection is never used by two threads at once.
    let connection: PostgresConnection
    init(_ connection: PostgresConnection) { self.connection = connection }
}
