import Synchronization

/// The sends of one delivery socket that are queued and not yet answered: at most `limit` at
/// once, so a client that sends without waiting is read no faster than its sends are stored.
///
/// The socket's receive loop counts each send in (`admit`) and waits there while the window is
/// full; a send is counted out (`answered`) once its answer is queued on the socket (by the
/// store's committer, right after its commit), or has failed to be. No task waits per send
/// unless the socket's queue is full.
final class SocketRequestWindow: Sendable {
    /// The most answers one socket waits for at once.
    static let limit = 16

    private struct State {
        var open = 0
        /// The receive loop, waiting until at most `until` sends are open.
        var waiter: (continuation: CheckedContinuation<Void, Never>, until: Int)?
    }

    private let state = Mutex(State())

    /// Counts a queued send in; when `limit` are open, waits until one is answered.
    func admit() async {
        let full = state.withLock { state -> Bool in
            state.open += 1
            return state.open >= Self.limit
        }
        if full { await waitUntilOpen(atMost: Self.limit - 1) }
    }

    /// Counts a send out once its answer is queued on the socket (or failed to be).
    func answered() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.open -= 1
            guard let waiter = state.waiter, state.open <= waiter.until else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Waits until every send admitted has been answered (or failed to be).
    func drain() async {
        await waitUntilOpen(atMost: 0)
    }

    /// One waiter at a time: only the socket's receive loop calls `admit` and `drain`.
    private func waitUntilOpen(atMost until: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.open <= until { return true }
                state.waiter = (continuation, until)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
