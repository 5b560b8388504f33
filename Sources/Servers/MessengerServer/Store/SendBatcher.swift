import CourierCore
import Dispatch
import Synchronization

/// Group commit for sends: sends are queued in the order they arrive, and the batcher's own
/// serial queue stores whatever is queued in one transaction (one fsync), each send in a
/// savepoint of its own so that one failing send fails alone, then the next group.
///
/// Nobody waiting for a send holds a thread for it unless it asks to: `Pending.outcome()` blocks
/// (an HTTP handler's thread), `Pending.committed()` suspends, and `Pending.whenCommitted` calls
/// back on the committer right after the commit (a socket's send, answered there). Before,
/// every waiter blocked a thread on a lock while one of them committed, so a socket's sends
/// waiting for their commit held the store's shared queues, and the mailbox reads of deliveries
/// queued behind them.
final class SendBatcher: Sendable {
    final class Pending: @unchecked Sendable {
        // `result`, `storedEntries` and `deliveredHere` are written on the batcher's queue (by the
        // commit and the `onCommitted` handler) before `finish()`, and read by waiters only
        // through `finish()`'s hand-over.
        let message: OutgoingMessage
        let receivedAt: Int64
        let expiresAt: Int64
        var result: Result<SendOutcome, MessengerStoreError>?
        /// The mailbox rows the commit wrote, by device, when the store is the mailbox's only
        /// writer and gives ids in commit order (`SQLiteMessengerStore.isSoleMailboxWriter`);
        /// empty otherwise (PostgreSQL, where other instances write the same mailboxes).
        var storedEntries: [Int: MailboxEntry] = [:]
        /// The devices whose sockets on this instance took the send (or will read it) without a
        /// wake-up: set by `onCommitted`'s handler before the send is answered.
        var deliveredHere: Set<Int> = []
        private let settled = Mutex<Settled>(Settled())
        private let done = DispatchSemaphore(value: 0)

        private struct Settled {
            var outcome: Result<SendOutcome, MessengerStoreError>?
            var waiters: [CheckedContinuation<Result<SendOutcome, MessengerStoreError>, Never>] = []
            var callbacks: [@Sendable (Result<SendOutcome, MessengerStoreError>) -> Void] = []
        }

        init(message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64) {
            self.message = message
            self.receivedAt = receivedAt
            self.expiresAt = expiresAt
        }

        /// Hands the commit's result to whoever waits (called once, after the commit).
        func finish() {
            let outcome =
                result ?? .failure(MessengerStoreError(.storage, "the send's commit gave no result"))
            let (waiters, callbacks) = settled.withLock { state in
                state.outcome = outcome
                defer { (state.waiters, state.callbacks) = ([], []) }
                return (state.waiters, state.callbacks)
            }
            for waiter in waiters { waiter.resume(returning: outcome) }
            for callback in callbacks { callback(outcome) }
            done.signal()
        }

        /// Blocks the calling thread until the send is committed (or refused).
        func outcome() -> Result<SendOutcome, MessengerStoreError> {
            if let outcome = settled.withLock({ $0.outcome }) { return outcome }
            done.wait()
            // Let any later blocking call through as well.
            done.signal()
            return settled.withLock { $0.outcome }
                ?? .failure(MessengerStoreError(.storage, "the send's commit gave no result"))
        }

        /// Calls `body` with the outcome once the send is committed (or refused): on the
        /// committer, right after the group's commit, or at once on the caller's thread when that
        /// has already happened. Every callback given is called, in the order given; `body` must
        /// not block.
        func whenCommitted(_ body: @escaping @Sendable (Result<SendOutcome, MessengerStoreError>) -> Void) {
            let ready = settled.withLock { state -> Result<SendOutcome, MessengerStoreError>? in
                if let outcome = state.outcome { return outcome }
                state.callbacks.append(body)
                return nil
            }
            if let ready { body(ready) }
        }

        /// Suspends until the send is committed (or refused), holding no thread meanwhile.
        func committed() async -> Result<SendOutcome, MessengerStoreError> {
            await withCheckedContinuation { continuation in
                let ready = settled.withLock { state -> Result<SendOutcome, MessengerStoreError>? in
                    if let outcome = state.outcome { return outcome }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    private struct Queue {
        var sends: [Pending] = []
        /// Whether a drain is scheduled or running on `committer`.
        var draining = false
    }

    private let queue = Mutex<Queue>(Queue())
    private enum CommittedHandler {
        case none
        case one(@Sendable ([Pending]) -> Void)
        /// A second server registered on the same store: no handler runs.
        case shared
    }

    private let committedHandler = Mutex<CommittedHandler>(.none)
    private let committer = DispatchQueue(label: "courier.messenger.send-commit")
    private let groups = Atomic<Int>(0)

    /// Group commits run so far (each one transaction for one or more sends), for tests and
    /// benchmarks.
    var groupCommits: Int { groups.load(ordering: .relaxed) }
    /// The most sends one transaction holds.
    let maximumBatch = 256

    /// Runs `handler` on the committer after each group's commit, before any send of the group
    /// is answered, with the group in commit order (the messenger hands new envelopes straight
    /// to live sockets there). For one server per store: a second registration turns handlers
    /// off for good, since each server would hand envelopes only to its own sockets while the
    /// other's answers skipped their wake-ups (two instances over one store object, in tests).
    func onCommitted(_ handler: @escaping @Sendable ([Pending]) -> Void) {
        committedHandler.withLock { current in
            if case .none = current { current = .one(handler) } else { current = .shared }
        }
    }

    /// Stores `pending` with whatever else is queued; blocks until it is committed.
    func submit(_ pending: Pending, commit: @escaping @Sendable ([Pending]) -> Void) -> Result<
        SendOutcome, MessengerStoreError
    > {
        enqueue(pending, commit: commit)
        return pending.outcome()
    }

    /// Puts `pending` in the queue behind every send queued before it, and returns at once:
    /// sends are stored in the order they were queued, by `commit` on the batcher's queue.
    func enqueue(_ pending: Pending, commit: @escaping @Sendable ([Pending]) -> Void) {
        let starts = queue.withLock { state -> Bool in
            state.sends.append(pending)
            defer { state.draining = true }
            return !state.draining
        }
        if starts { committer.async { self.drain(commit) } }
    }

    /// Commits the queue group by group until it is empty.
    private func drain(_ commit: ([Pending]) -> Void) {
        while true {
            let batch = queue.withLock { state -> [Pending] in
                let taken = Array(state.sends.prefix(maximumBatch))
                state.sends.removeFirst(taken.count)
                if taken.isEmpty { state.draining = false }
                return taken
            }
            guard !batch.isEmpty else { return }
            groups.add(1, ordering: .relaxed)
            commit(batch)
            if case .one(let handler) = committedHandler.withLock({ $0 }) { handler(batch) }
            for pending in batch { pending.finish() }
        }
    }
}
