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
/// Wake-ups are coalesced in time too: the first commit after a quiet `wakeInterval` wakes its
/// observers at once, and commits within the interval after a wake-up are woken for together
/// when it ends, from a queue of this object's. Waking a parked observer is a cross-thread
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
        /// These records changed.
        case records([String: Known])
    }

    private struct Observer {
        let collection: String
        let continuation: AsyncStream<Void>.Continuation
        var pending: Pending
        /// Changed since the last wake-up, which is held until the interval ends.
        var wakeDeferred = false

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
                records[change.id] = states.map { .state($0[index]) } ?? .unread
                touched = true
            }
            pending = records.count > CollectionSignals.maximumPendingIDs ? .all : .records(records)
            return touched
        }
    }

    private struct State {
        var next = 0
        var all: [Int: Observer] = [:]
        /// When observers were last woken (monotonic nanoseconds), if ever.
        var lastWake: UInt64?
        /// Whether the end of the current interval will wake the deferred observers.
        var flushScheduled = false
        /// Wake-ups handed to observers so far.
        var wakes = 0

        /// The continuations of `keys` and of every deferred observer, clearing their deferral
        /// and counting the wake-ups.
        mutating func takeWakes(including keys: [Int]) -> [AsyncStream<Void>.Continuation] {
            var woken: [AsyncStream<Void>.Continuation] = []
            for key in Array(all.keys) where all[key]!.wakeDeferred || keys.contains(key) {
                all[key]!.wakeDeferred = false
                woken.append(all[key]!.continuation)
            }
            wakes += woken.count
            return woken
        }
    }

    static let maximumPendingIDs = 512
    /// The shortest time between two wake-ups of observers (zero: every commit wakes them).
    let wakeInterval: Duration
    private let intervalNanoseconds: UInt64
    private let state = Mutex(State())
    private let flushQueue = DispatchQueue(label: "courier.sync.observer-wakes")

    /// - Parameter wakeInterval: the shortest time between two wake-ups of observers.
    init(wakeInterval: Duration = .zero) {
        self.wakeInterval = wakeInterval
        let (seconds, attoseconds) = max(wakeInterval, .zero).components
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
                return pending
            } ?? .all
        }
        return (stream, take)
    }

    /// Records the changes for the observers of their collections and signals them: at once
    /// when the last wake-up is at least `wakeInterval` old, otherwise when the interval ends.
    /// - Parameter states: for each change, the record as committed (`nil`: deleted), when the
    ///   writer knows it; `nil` when observers must read the records.
    func send(_ changes: [RecordChange], states: [LocalRecord?]? = nil) {
        guard !changes.isEmpty else { return }
        let now = intervalNanoseconds == 0 ? 0 : DispatchTime.now().uptimeNanoseconds
        let (woken, flushAt) = state.withLock { state -> ([AsyncStream<Void>.Continuation], UInt64?) in
            var touched: [Int] = []
            // Keys first: changing an observer while iterating the dictionary would copy it.
            for key in Array(state.all.keys) where state.all[key]!.absorb(changes, states: states) {
                touched.append(key)
            }
            guard !touched.isEmpty else { return ([], nil) }
            guard let lastWake = state.lastWake, intervalNanoseconds > 0, now < lastWake &+ intervalNanoseconds else {
                state.lastWake = now
                // Observers deferred earlier are due as well: they are woken with these.
                return (state.takeWakes(including: touched), nil)
            }
            for key in touched { state.all[key]!.wakeDeferred = true }
            guard !state.flushScheduled else { return ([], nil) }
            state.flushScheduled = true
            return ([], lastWake &+ intervalNanoseconds)
        }
        for continuation in woken { continuation.yield() }
        if let flushAt {
            flushQueue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: flushAt)) { [weak self] in
                self?.wakeDeferred()
            }
        }
    }

    /// Wakes the observers whose wake-up was held for the interval (at its end).
    func wakeDeferred() {
        let woken = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            state.flushScheduled = false
            state.lastWake = DispatchTime.now().uptimeNanoseconds
            return state.takeWakes(including: [])
        }
        for continuation in woken { continuation.yield() }
    }
}
