import Synchronization

/// The answer of a request handled on its loop (`RouteExecution.onLoop`): taken by the loop in
/// the turn that started the handler, or, when the handler suspended past that turn, handed back
/// through the mailbox like any handler task's.
final class LoopAnswer: Sendable {
    private enum State {
        case waiting
        case answered(HTTPResponse)
        case released
    }

    private let state = Mutex(State.waiting)

    /// The handler has answered: keeps the answer for `take()`, or returns it when the loop has
    /// already stopped waiting for it (the caller then delivers it).
    func settle(_ response: HTTPResponse) -> HTTPResponse? {
        state.withLock { state in
            guard case .released = state else {
                state = .answered(response)
                return nil
            }
            return response
        }
    }

    /// On the loop, after the handler's turn: the answer if it is in; otherwise the loop stops
    /// waiting, and the handler hands it back later.
    func take() -> HTTPResponse? {
        state.withLock { state in
            if case .answered(let response) = state { return response }
            state = .released
            return nil
        }
    }
}
