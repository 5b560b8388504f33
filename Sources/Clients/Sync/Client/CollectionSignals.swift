import Synchronization

/// Observers of collections. Each holds at most one pending "changed" signal and what changed
/// since its last read, so a burst of commits costs an observer one read of just those records
/// (GRDB coalesces the same way); past `maximumPendingIDs` it re-reads the whole collection.
///
/// A local write hands over the record as it committed it, so its observers take that state
/// without reading it back: an observed write costs the writer no reader contending with it
/// for SQLite's locks.
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

    static let maximumPendingIDs = 512
    private let observers = Mutex<(next: Int, all: [Int: Observer])>((0, [:]))

    /// Observers subscribed now (an observation's stream, once released, unsubscribes).
    var observerCount: Int { observers.withLock { $0.all.count } }

    /// A stream that yields once now and then whenever `collection` changed, and the function
    /// that takes (and clears) what changed.
    func subscribe(_ collection: String) -> (signals: AsyncStream<Void>, take: @Sendable () -> Pending) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = observers.withLock { state in
            state.next += 1
            state.all[state.next] = Observer(collection: collection, continuation: continuation, pending: .all)
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.all.removeValue(forKey: id) }
        }
        continuation.yield()
        let take: @Sendable () -> Pending = { [weak self] in
            self?.observers.withLock { state in
                guard let pending = state.all[id]?.pending else { return .all }
                state.all[id]?.pending = .records([:])
                return pending
            } ?? .all
        }
        return (stream, take)
    }

    /// Records the changes for the observers of their collections and signals them.
    /// - Parameter states: for each change, the record as committed (`nil`: deleted), when the
    ///   writer knows it; `nil` when observers must read the records.
    func send(_ changes: [RecordChange], states: [LocalRecord?]? = nil) {
        guard !changes.isEmpty else { return }
        let woken = observers.withLock { state -> [AsyncStream<Void>.Continuation] in
            var woken: [AsyncStream<Void>.Continuation] = []
            // Keys first: changing an observer while iterating the dictionary would copy it.
            for key in Array(state.all.keys) where state.all[key]!.absorb(changes, states: states) {
                woken.append(state.all[key]!.continuation)
            }
            return woken
        }
        for continuation in woken { continuation.yield() }
    }
}
