/// Something that happened to a realtime connection, fed to `ConnectionStateMachine.handle(_:)`.
public enum ConnectionEvent: Sendable, Hashable {
    /// The app wants the connection (it starts in the foreground with a network path unless told
    /// otherwise).
    case start
    /// The app no longer wants the connection.
    case stop
    /// The socket opened and authenticated.
    case opened
    /// Opening the socket failed.
    case failed
    /// The open socket closed or broke.
    case dropped
    /// A timer the machine asked for fired.
    case timerFired(ConnectionTimer)
    /// The peer answered a keepalive ping.
    case pong
    /// The network path came up (`true`) or went away (`false`).
    case pathChanged(available: Bool)
    /// The app went to the background.
    case background
    /// The app came to the foreground.
    case foreground
    /// A push arrived while suspended: catch up.
    case push
}

/// The timers of a connection; at most one of each kind runs at a time.
public enum ConnectionTimer: Sendable, Hashable, CaseIterable {
    /// The end of a waiting delay dₙ.
    case reconnect
    /// The next keepalive ping.
    case ping
    /// The connection has been live long enough to count as stable: n goes back to 0.
    case stable
}
