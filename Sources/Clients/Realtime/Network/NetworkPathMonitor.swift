import Synchronization

/// Tells whether the device has a usable network path: `NWPathMonitor` on Apple platforms
/// (`SystemPathMonitor`), an injectable source elsewhere and in tests (`ManualPathMonitor`).
public protocol NetworkPathMonitor: Sendable {
    /// The path's availability: the current value first, then each change.
    func updates() -> AsyncStream<Bool>
}

/// A path monitor driven by hand: Linux services that learn about the network some other way,
/// and tests.
public final class ManualPathMonitor: NetworkPathMonitor {
    private struct State {
        var available: Bool
        var listeners: [AsyncStream<Bool>.Continuation] = []
    }

    private let state: Mutex<State>

    /// A monitor whose path starts `available`.
    public init(available: Bool = true) { state = Mutex(State(available: available)) }

    /// The current value, then each change.
    public func updates() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        state.withLock { state in
            continuation.yield(state.available)
            state.listeners.append(continuation)
        }
        return stream
    }

    /// Sets the path's availability; listeners hear of a change.
    public func set(available: Bool) {
        let listeners = state.withLock { state -> [AsyncStream<Bool>.Continuation] in
            guard state.available != available else { return [] }
            state.available = available
            return state.listeners
        }
        for listener in listeners { listener.yield(available) }
    }
}
