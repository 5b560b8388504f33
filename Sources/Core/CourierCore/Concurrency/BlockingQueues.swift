import Dispatch
import Synchronization

/// A few serial dispatch queues for blocking calls (a database round trip, an fsync), taken in
/// turn: an async caller suspends while the call blocks one of these threads instead of one of the
/// few threads of Swift's cooperative pool. Serial queues each get a thread of their own when
/// they have work; a concurrent one would borrow from the threads that, on Linux, the cooperative
/// pool shares with it.
///
/// ```swift
/// let rows = try await queues.run { try store.mailbox(accountId: a, deviceId: 1, afterId: 0, limit: 100) }
/// ```
public final class BlockingQueues: Sendable {
    private let queues: [DispatchQueue]
    private let next = Atomic<UInt>(0)

    /// Creates `count` queues labelled `label.0`, `label.1`…
    public init(label: String, count: Int) {
        queues = (0..<max(1, count)).map { DispatchQueue(label: "\(label).\($0)") }
    }

    /// The queue the next call takes.
    private var nextQueue: DispatchQueue {
        queues[Int(next.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(queues.count))]
    }

    /// Runs `work` on one of the queues and returns what it returns (or throws what it throws).
    /// `work` runs to the end once started, even if the calling task is cancelled.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let queue = nextQueue
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs `work` on one of the queues and returns what it returns.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        let queue = nextQueue
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Runs `work` on one of the queues without waiting for it.
    public func detach(_ work: @escaping @Sendable () -> Void) {
        nextQueue.async(execute: work)
    }
}
