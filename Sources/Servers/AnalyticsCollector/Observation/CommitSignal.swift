import Synchronization

/// Wakes every live event stream after a commit. A waiter that is still busy with the last wake
/// gets one pending wake, not one per commit, so a slow reader costs nothing per commit.
final class CommitSignal: Sendable {
    private struct State {
        var nextID = 0
        var waiters: [Int: AsyncStream<Void>.Continuation] = [:]
    }

    private let state = Mutex(State())

    /// Streams currently subscribed.
    var subscriberCount: Int { state.withLock { $0.waiters.count } }

    /// A stream of wakes, ended when the subscriber stops iterating it.
    func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.waiters[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.waiters.removeValue(forKey: id) }
        }
        return stream
    }

    /// Wakes every subscriber.
    func notify() {
        let waiters = state.withLock { Array($0.waiters.values) }
        for waiter in waiters { waiter.yield() }
    }
}
