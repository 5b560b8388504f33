import CourierCore
import Foundation
import Synchronization
import CourierHTTP

/// Commits batches from many request threads in shared transactions.
///
/// A request submits its batch and awaits (holding no thread); one writer thread takes everything
/// that has queued up since its last commit and stores it in one transaction, then resumes each
/// waiter with its own outcome. Under load many batches share one `fsync`; alone, a batch commits
/// at once.
final class GroupCommitter: Sendable {
    typealias Outcome = Result<CommitOutcome, HTTPError>

    /// One submitted batch and whoever waits for it; the first outcome (the commit's, or the
    /// timeout's) is the one the waiter gets.
    private final class Ticket: Sendable {
        private enum Waiter {
            case pending
            case waiting(CheckedContinuation<Outcome, Never>)
            case finished(Outcome)
        }

        private let waiter = Mutex(Waiter.pending)
        /// The batch, until the writer has stored it (see `release()`).
        private let batch: Mutex<[PreparedMessage]>
        /// The batch's payload bytes (counted in `pendingBytes` while it waits).
        let bytes: Int
        init(_ messages: [PreparedMessage]) {
            batch = Mutex(messages)
            bytes = messages.reduce(0) { $0 + $1.payload.count }
        }

        /// The batch (shared, not copied: the submitter holds the same array).
        var messages: [PreparedMessage] { batch.withLock { $0 } }

        /// Drops the ticket's hold on the batch before its outcome is delivered, while the
        /// submitter (still waiting) holds the array too: the messages are then freed on the
        /// submitter's thread when it returns, not on the single writer thread, where freeing
        /// thousands of strings per group stood in the way of the next commit.
        func release() { batch.withLock { $0 = [] } }

        /// Delivers `outcome` unless one was delivered already.
        func finish(_ outcome: Outcome) {
            let continuation: CheckedContinuation<Outcome, Never>? = waiter.withLock { waiter in
                switch waiter {
                case .pending:
                    waiter = .finished(outcome)
                    return nil
                case .waiting(let continuation):
                    waiter = .finished(outcome)
                    return continuation
                case .finished:
                    return nil
                }
            }
            continuation?.resume(returning: outcome)
        }

        /// The outcome, once there is one.
        func outcome() async -> Outcome {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let ready: Outcome? = waiter.withLock { waiter in
                    if case .finished(let outcome) = waiter { return outcome }
                    waiter = .waiting(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    private struct State {
        var queue: [Ticket] = []
        var pendingEvents = 0
        /// Payload bytes of `pendingEvents`.
        var pendingBytes = 0
        var stopping = false
        var stopped = false
    }

    private let store: any EventStore
    private let clock: any Clock
    private let configuration: CollectorConfiguration
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(store: any EventStore, clock: any Clock, configuration: CollectorConfiguration) {
        self.store = store
        self.clock = clock
        self.configuration = configuration
        NamedThread.start("ingest-commit") { [self] in run() }
    }

    /// Events queued and not yet committed.
    var pendingEvents: Int { state.withLock { $0.pendingEvents } }

    /// Queues `messages` and waits, without holding a thread, until they are committed.
    /// - Throws: `HTTPError` — `overloaded` when too much is queued (nothing is queued then),
    ///   `shuttingDown` after `stop()`, `commitTimeout` when the commit takes longer than
    ///   `commitTimeout` (it may still land; a retry is deduplicated), `storageUnavailable` when
    ///   the commit fails.
    func submit(_ messages: [PreparedMessage]) async throws(HTTPError) -> CommitOutcome {
        let ticket = Ticket(messages)
        enum Admission { case accepted, busy, stopping }
        let admission: Admission = state.withLock { state in
            guard !state.stopping else { return .stopping }
            // One batch is always taken when nothing waits, whatever its size (the body limit
            // bounds it).
            if state.pendingEvents > 0
                && (state.pendingEvents + messages.count > configuration.maximumPendingEvents
                    || state.pendingBytes + ticket.bytes > configuration.maximumPendingBytes)
            {
                return .busy
            }
            state.queue.append(ticket)
            state.pendingEvents += messages.count
            state.pendingBytes += ticket.bytes
            return .accepted
        }
        switch admission {
        case .accepted: break
        case .busy:
            throw HTTPError(
                .overloaded, "the collector is busy; retry later",
                retryAfterSeconds: configuration.retryAfterSeconds)
        case .stopping:
            throw HTTPError(.shuttingDown, "the collector is shutting down; retry later", retryAfterSeconds: 1)
        }
        wake.signal()
        // The request is not held hostage by a stuck store: at the deadline the client is told to
        // retry, and if the commit does land later, the retry is a duplicate and is skipped.
        let timeout = HTTPError(
            .commitTimeout, "the commit did not finish in time; retry (it is deduplicated)",
            retryAfterSeconds: configuration.retryAfterSeconds)
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .nanoseconds(Int(clamping: configuration.commitTimeout.wholeNanoseconds))
        ) { [weak ticket] in ticket?.finish(.failure(timeout)) }
        return try await ticket.outcome().get()
    }

    /// Commits what is queued, then stops the writer thread. Later submissions are refused.
    func stop() {
        let first = state.withLock { state -> Bool in
            let first = !state.stopping
            state.stopping = true
            return first
        }
        if first { wake.signal() }
        if state.withLock({ $0.stopped }) { return }
        finished.wait()
        // Pass the signal on, so a concurrent caller of `stop()` returns too.
        finished.signal()
    }

    private func run() {
        while true {
            wake.wait()
            let (tickets, stopping) = state.withLock { state -> ([Ticket], Bool) in
                let taken = state.queue
                state.queue.removeAll(keepingCapacity: true)
                return (taken, state.stopping)
            }
            if !tickets.isEmpty { commit(tickets) }
            if stopping {
                // Anything queued between the take and the stop flag is committed too.
                let rest = state.withLock { state -> [Ticket] in
                    let taken = state.queue
                    state.queue.removeAll()
                    return taken
                }
                if !rest.isEmpty { commit(rest) }
                state.withLock { $0.stopped = true }
                finished.signal()
                return
            }
        }
    }

    private func commit(_ tickets: [Ticket]) {
        let cutoff = clock.nowMilliseconds - configuration.dedupeWindow.wholeMilliseconds
        var results: [Result<CommitOutcome, HTTPError>]
        var batches = tickets.map(\.messages)
        do {
            results = try store.commit(batches, dedupeCutoff: cutoff).map { .success($0) }
            if results.count != tickets.count {
                throw EventStoreError(
                    .unavailable, detail: "the store answered \(results.count) of \(tickets.count) batches")
            }
        } catch {
            // One shared transaction failed: commit each batch alone so one bad batch (or a
            // transient failure) costs only the batches it really affects.
            results = batches.map { messages in
                do throws(EventStoreError) {
                    guard let outcome = try store.commit([messages], dedupeCutoff: cutoff).first else {
                        throw EventStoreError(.unavailable, detail: "the store answered no outcome")
                    }
                    return .success(outcome)
                } catch {
                    return .failure(HTTPError(error))
                }
            }
        }
        let count = batches.reduce(0) { $0 + $1.count }
        let bytes = tickets.reduce(0) { $0 + $1.bytes }
        batches = []
        state.withLock { state in
            state.pendingEvents -= count
            state.pendingBytes -= bytes
        }
        for (ticket, result) in zip(tickets, results) {
            ticket.release()
            ticket.finish(result)
        }
    }
}
