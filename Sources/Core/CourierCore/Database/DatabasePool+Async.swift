import Foundation
import Synchronization

extension DatabasePool {
    /// Runs `body` inside a write transaction, as the synchronous `write`, on the pool's own
    /// writer queue: the calling task suspends instead of holding a thread of Swift's cooperative
    /// pool while it waits for the writer connection and for the commit's `fsync`, so an actor
    /// that writes does not stall every other task on a machine with few cores.
    ///
    /// `body` runs to completion once it has started, even if the task is cancelled.
    ///
    /// ```swift
    /// let id = try await pool.write { db in
    ///     try db.run("INSERT INTO items(name) VALUES (?1)", [.text(name)])
    ///     return db.lastInsertRowID
    /// }
    /// ```
    /// - Throws: what `body` throws (the transaction rolls back), or `DatabaseError` from begin or
    ///   commit.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await run(on: writerQueue) { try self.write(body) }
    }

    /// Runs `body` with the writer connection outside any transaction, as the synchronous
    /// `writeWithoutTransaction`, on the pool's writer queue (see the async `write`).
    /// - Throws: what `body` throws.
    public func writeWithoutTransaction<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await run(on: writerQueue) { try self.writeWithoutTransaction(body) }
    }

    /// Runs `body` on a reader connection in one snapshot, as the synchronous `read`, on the
    /// pool's own threads (the writer queue for `:memory:`), so the calling task suspends instead
    /// of holding a thread of Swift's cooperative pool.
    /// - Throws: what `body` throws, or `DatabaseError` when a reader cannot be opened.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let turn = nextReaderQueue.wrappingAdd(1, ordering: .relaxed).oldValue
        let queue = isInMemory ? writerQueue : readerQueues[Int(turn % UInt(readerQueues.count))]
        return try await run(on: queue) { try self.read(body) }
    }

    private func run<T: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
