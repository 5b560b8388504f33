import CourierCore
import Foundation
import Synchronization

/// Group commit for sends: callers that arrive while a commit is under way queue up, and the
/// next one to take the lead stores the whole queue in one transaction (one fsync), each send in
/// a savepoint of its own so that one failing send fails alone.
final class SendBatcher: Sendable {
    final class Pending: @unchecked Sendable {
        // Written by the leader that stores it, read by its caller after taking the lead lock.
        let message: OutgoingMessage
        let receivedAt: Int64
        let expiresAt: Int64
        var result: Result<SendOutcome, MessengerStoreError>?

        init(message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64) {
            self.message = message
            self.receivedAt = receivedAt
            self.expiresAt = expiresAt
        }
    }

    private let queue = Mutex<[Pending]>([])
    private let lead = NSLock()
    private let groups = Atomic<Int>(0)

    /// Group commits run so far (each one transaction for one or more sends), for tests and
    /// benchmarks.
    var groupCommits: Int { groups.load(ordering: .relaxed) }
    /// The most sends one transaction holds.
    let maximumBatch = 256

    /// Stores `pending` with whatever else is queued; blocks until it is committed.
    func submit(_ pending: Pending, commit: ([Pending]) -> Void) -> Result<SendOutcome, MessengerStoreError> {
        enqueue(pending)
        return wait(for: pending, commit: commit)
    }

    /// Puts `pending` in the queue behind every send queued before it, without waiting: sends are
    /// stored in the order they were queued. `wait(for:commit:)` must follow.
    func enqueue(_ pending: Pending) {
        queue.withLock { $0.append(pending) }
    }

    /// Blocks until `pending` (queued with `enqueue`) is committed, leading a group commit of
    /// the queue when no one else is.
    func wait(for pending: Pending, commit: ([Pending]) -> Void) -> Result<SendOutcome, MessengerStoreError> {
        while true {
            lead.lock()
            defer { lead.unlock() }
            if let result = pending.result { return result }
            let batch = queue.withLock { queue -> [Pending] in
                let taken = Array(queue.prefix(maximumBatch))
                queue.removeFirst(taken.count)
                return taken
            }
            guard !batch.isEmpty else { continue }
            groups.add(1, ordering: .relaxed)
            commit(batch)
            if let result = pending.result { return result }
        }
    }
}
