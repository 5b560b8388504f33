import CourierHTTPClient

/// Opens sockets for a `RealtimeConnection`: the engine's `WebSocketClient` in apps
/// (`WebSocketTransport`: libwebsockets on Linux, `URLSessionWebSocketTask` on Apple platforms),
/// a fault-injecting fake in tests (`CourierTesting.FakeRealtimeTransport`).
public protocol RealtimeTransport: Sendable {
    /// Opens a socket and completes its handshake (authentication included).
    /// - Throws: when the socket cannot be opened; the connection then waits and retries.
    func connect() async throws -> any RealtimeSocket
}

/// One open socket.
public protocol RealtimeSocket: Sendable {
    /// Queues `message` in order.
    /// - Throws: when the socket has closed.
    func send(_ message: WebSocketMessage) async throws
    /// The next inbound message, or `nil` once the socket has closed.
    func receive() async -> WebSocketMessage?
    /// Closes the socket; a pending `receive` returns `nil`.
    func close()
}
