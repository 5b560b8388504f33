import CourierCore
import Dispatch
import Synchronization

/// Observers of collections. Each holds at most one pending "changed" signal and what changed
/// since its last read, so a burst of commits costs an observer one read of just those records
/// (GRDB coalesces the same way); past `maximumPendingIDs` it re-reads the whole collection.
///
/// A local write hands over the record as it committed it, so its observers take that state
/// without reading it back: an observed write costs the writer no reader contending with it
/// for SQLite's locks.
///
/// Wake-ups are coalesced in time too, per observer: the first commit after an observer's quiet
/// `wakeInterval` wakes it at once, and commits within the interval after its wake-up are woken
/// for together when the interval ends, from a queue of this object's (a consumer that took them
/// meanwhile is not woken for nothing). Waking a parked observer is a cross-thread
/// wake-up (a `futex` system call on the writer's thread, several microseconds on a virtual
/// machine), so a burst of writes pays it once per interval instead of once per commit.
final class CollectionSignals: Sendable {
    /// What an observer knows about one changed record.
    enum Known: Sendable, Equatable {
        /// Read it from the store (a pull or a resolution: the writer did not say).
        case unread
        /// Its state after the change: `nil` when it is deleted.
        case state(LocalRecord?)
    }

    /// What changed since an observer last looked.
    enum Pending: Sendable, Equatable {
        /// Re-read everything (the first read, or too many ids to keep one by one).
        case all
        /// These records changed, by id (byte for byte, as the store keys them).
        case records([ExactText: Known])
    }

    private struct Observer {
        let collection: String
        let continuation: AsyncStream<Void>.Continuation
        var pending: Pending
        /// Changed since the last wake-up, which is held until the interval ends.
        var wakeDeferred = false
        /// When this observer was last woken (monotonic nanoseconds), if ever.
        var lastWake: UInt64?

        /// Marks the observer woken at `now` and returns what to signal.
        mutating func wake(at now: UInt64) -> AsyncStream<Void>.Continuation {
            wakeDeferred = false
            lastWake = now
            return continuation
        }

        /// Adds the changes to this observer's collection to what it has pending; returns
        /// whether any did. The pending records are changed in place: the observer lets go of
        /// them first, so a burst of commits does not copy them once per commit.
        mutating func absorb(_ changes: [RecordChange], states: [LocalRecord?]?) -> Bool {
            guard case .records(var records) = pending else {
                return changes.contains { $0.collection == collection }
            }
            pending = .all
            var touched = false
            // In commit order: a later change to the same record replaces what is known.
            for (index, change) in changes.enumerated() where change.collection == collection {
                records[ExactText(change.id)] = states.map { .state($0[index]) } ?? .unread
                touched = true
            }
            pending = records.count > CollectionSignals.maximumPendingIDs ? .all : .records(records)
            return touched
        }
    }

    private struct State {
        var next = 0
        var all: [Int: Observer] = [:]
        /// When the earliest scheduled end of an interval wakes the deferred observers.
        var flushAt: UInt64?
        /// Wake-ups handed to observers so far.
        var wakes = 0
    }

    static let maximumPendingIDs = 512
    /// The shortest time between two wake-ups of an observer, in nanoseconds (zero: every commit
    /// wakes it).
    private let intervalNanoseconds: UInt64
    private let state = Mutex(State())
    private let flushQueue = DispatchQueue(label: "courier.sync.observer-wakes")

    /// - Parameter wakeInterval: the shortest time between two wake-ups of observers.
    init(wakeInterval: Duration = .zero) {
        // Clamped to a day: a longer interval means the same (held until flushed) and cannot
        // overflow the nanosecond arithmetic.
        let (seconds, attoseconds) = min(max(wakeInterval, .zero), .seconds(86_400)).components
        intervalNanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    /// Observers subscribed now (an observation's stream, once released, unsubscribes).
    var observerCount: Int { state.withLock { $0.all.count } }

    /// Wake-ups handed to observers so far (each is one signal yielded to one observer).
    var wakeCount: Int { state.withLock { $0.wakes } }

    /// A stream that yields once now and then whenever `collection` changed, and the function
    /// that takes (and clears) what changed.
    func subscribe(_ collection: String) -> (signals: AsyncStream<Void>, take: @Sendable () -> Pending) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.next += 1
            state.all[state.next] = Observer(collection: collection, continuation: continuation, pending: .all)
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.all.removeValue(forKey: id) }
        }
        continuation.yield()
        let take: @Sendable () -> Pending = { [weak self] in
            self?.state.withLock { state in
                guard let pending = state.all[id]?.pending else { return .all }
                state.all[id]?.pending = .records([:])
                // What a held wake-up was for is taken now: it need not wake the consumer.
                state.all[id]?.wakeDeferred = false
                return pending
            } ?? .all
        }
        return (stream, take)
    }

    /// Records the changes for the observers of their collections and signals each: at once
    /// when its last wake-up is at least `wakeInterval` old, otherwise when its interval ends.
    /// - Parameter states: for each change, the record as committed (`nil`: deleted), when the
    ///   writer knows it; `nil` when observers must read the records.
    func send(_ changes: [RecordChange], states: [LocalRecord?]? = nil) {
        guard !changes.isEmpty else { return }
        let now = intervalNanoseconds == 0 ? 0 : DispatchTime.now().uptimeNanoseconds
        let (woken, flushAt) = state.withLock { state -> ([AsyncStream<Void>.Continuation], UInt64?) in
            var woken: [AsyncStream<Void>.Continuation] = []
            var due: UInt64?
            // Keys first: changing an observer while iterating the dictionary would copy it.
            for key in Array(state.all.keys) where state.all[key]!.absorb(changes, states: states) {
                if intervalNanoseconds > 0, let last = state.all[key]!.lastWake, now < last &+ intervalNanoseconds {
                    state.all[key]!.wakeDeferred = true
                    due = min(due ?? .max, last &+ intervalNanoseconds)
                } else {
                    woken.append(state.all[key]!.wake(at: now))
                }
            }
            state.wakes += woken.count
            // A flush already due by then wakes these too; otherwise one more is scheduled.
            guard let due, due < state.flushAt ?? .max else { return (woken, nil) }
            state.flushAt = due
            return (woken, due)
        }
        for continuation in woken { continuation.yield() }
        if let flushAt {
            flushQueue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: flushAt)) { [weak self] in
                self?.wakeDeferred()
            }
        }
    }

    /// Wakes the observers whose wake-up was held (at the end of an interval).
    func wakeDeferred() {
        let woken = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            state.flushAt = nil
            let now = DispatchTime.now().uptimeNanoseconds
            var woken: [AsyncStream<Void>.Continuation] = []
            for key in Array(state.all.keys) where state.all[key]!.wakeDeferred {
                woken.append(state.all[key]!.wake(at: now))
            }
            state.wakes += woken.count
            return woken
        }
        for continuation in woken { continuation.yield() }
    }
}
