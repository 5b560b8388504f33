/// Where a realtime connection is, exactly the states of the lifecycle drawing in
/// docs/realtime.md: idle → connecting → live; connecting/live → waiting(dₙ) on a failure or a
/// drop; live → suspended in the background; suspended → waiting on a push or the foreground.
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Not started, or waiting for the foreground and a network path.
    case idle
    /// Opening the socket (and authenticating); `attempt` is the backoff exponent n.
    case connecting(attempt: Int)
    /// Open and authenticated: resumed, the outbox flushing, pings going out.
    case live
    /// Waiting `delay` (drawn with full jitter from attempt n's window) before the next attempt.
    case waiting(attempt: Int, delay: Duration)
    /// In the background: no socket (the system would kill it); pushes wake the app.
    case suspended

    /// `idle`, `connecting`, `live`, `waiting` or `suspended`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .connecting(let attempt): "connecting(n=\(attempt))"
        case .live: "live"
        case .waiting(let attempt, let delay): "waiting(n=\(attempt), d=\(delay))"
        case .suspended: "suspended"
        }
    }
}
