import CourierCore
import Synchronization

/// Wakes an owner's poke long-polls when a push by that owner commits.
final class PokeHub: Sendable {
    private struct Waiter {
        let owner: String
        let continuation: AsyncStream<Void>.Continuation
    }

    private let waiters = Mutex<(next: Int, all: [Int: Waiter])>((0, [:]))

    /// Wakes every long-poll of `owner`.
    func poke(owner: String) {
        let woken = waiters.withLock { state in
            let matching = state.all.filter { $0.value.owner == owner }
            for key in matching.keys { state.all[key] = nil }
            return matching.values.map(\.continuation)
        }
        for continuation in woken {
            continuation.yield()
            continuation.finish()
        }
    }

    /// Waits until `owner` is poked or `timeout` passes on `clock`; `hasNews` is checked after the
    /// waiter is registered, so a push that commits in between is not missed.
    /// - Returns: whether news came.
    func wait(owner: String, timeout: Duration, clock: any Clock, hasNews: () -> Bool) async -> Bool {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let id = waiters.withLock { state in
            state.next += 1
            state.all[state.next] = Waiter(owner: owner, continuation: continuation)
            return state.next
        }
        defer { _ = waiters.withLock { $0.all.removeValue(forKey: id) } }
        if hasNews() { return true }
        let timer = Task {
            try? await clock.sleep(for: timeout)
            continuation.finish()
        }
        defer { timer.cancel() }
        var iterator = stream.makeAsyncIterator()
        return await iterator.next() != nil
    }
}
