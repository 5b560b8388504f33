import Synchronization

/// Observers of collections. Each holds at most one pending "changed" signal and the ids changed
/// since its last read, so a burst of commits costs an observer one read of just those records
/// (GRDB coalesces the same way); past `maximumPendingIDs` it re-reads the whole collection.
final class CollectionSignals: Sendable {
    /// What changed since an observer last looked.
    enum Pending: Sendable, Equatable {
        /// Re-read everything (the first read, or too many ids to fetch one by one).
        case all
        /// These ids changed.
        case ids(Set<String>)
    }

    private struct Observer {
        let collection: String
        let continuation: AsyncStream<Void>.Continuation
        var pending: Pending
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
                state.all[id]?.pending = .ids([])
                return pending
            } ?? .all
        }
        return (stream, take)
    }

    /// Records the changed ids for the observers of their collections and signals them.
    func send(_ changes: [RecordChange]) {
        guard !changes.isEmpty else { return }
        let woken = observers.withLock { state -> [AsyncStream<Void>.Continuation] in
            var woken: [AsyncStream<Void>.Continuation] = []
            for (key, observer) in state.all {
                let ids = changes.lazy.filter { $0.collection == observer.collection }.map(\.id)
                guard !ids.isEmpty else { continue }
                if case .ids(var pending) = observer.pending {
                    pending.formUnion(ids)
                    state.all[key]?.pending = pending.count > Self.maximumPendingIDs ? .all : .ids(pending)
                }
                woken.append(observer.continuation)
            }
            return woken
        }
        for continuation in woken { continuation.yield() }
    }
}
