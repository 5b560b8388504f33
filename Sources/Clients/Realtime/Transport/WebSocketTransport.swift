import CourierHTTPClient

/// A `RealtimeTransport` over the engine's `WebSocketClient`: libwebsockets (with TLS) on Linux,
/// `URLSessionWebSocketTask` on Apple platforms, chosen by CourierHTTP behind `#if canImport`.
///
/// ```swift
/// let transport = WebSocketTransport(client: try WebSocketClient(), url: "wss://chat.example/v1/websocket") {
///     [("Authorization", "Basic …")]
/// }
/// ```
public struct WebSocketTransport: RealtimeTransport {
    private let client: WebSocketClient
    private let url: String
    private let configuration: WebSocketConfiguration
    private let headers: @Sendable () async throws -> [(String, String)]

    /// A transport that opens `url` with `client`.
    /// - Parameters:
    ///   - client: the engine's client, shared by every socket of the app.
    ///   - url: `ws://` or `wss://`.
    ///   - configuration: the socket's limits; the connect timeout bounds each attempt.
    ///   - headers: read before each attempt, so a refreshed token is used on reconnect.
    public init(
        client: WebSocketClient, url: String, configuration: WebSocketConfiguration = .init(),
        headers: @escaping @Sendable () async throws -> [(String, String)] = { [] }
    ) {
        self.client = client
        self.url = url
        self.configuration = configuration
        self.headers = headers
    }

    /// Opens the socket.
    /// - Throws: `WebSocketError` (`invalidURL`, `connectFailed`, `timedOut`…).
    public func connect() async throws -> any RealtimeSocket {
        let socket = try await client.connect(to: url, headers: try await headers(), configuration: configuration)
        return EngineSocket(socket: socket)
    }
}

/// The engine's `WebSocket` as a `RealtimeSocket`.
struct EngineSocket: RealtimeSocket {
    let socket: WebSocket

    func send(_ message: WebSocketMessage) async throws { try await socket.outbound.send(message) }

    func receive() async -> WebSocketMessage? {
        var iterator = socket.inbound.makeAsyncIterator()
        return await iterator.next()
    }

    func close() { socket.outbound.close(.goingAway) }
}
