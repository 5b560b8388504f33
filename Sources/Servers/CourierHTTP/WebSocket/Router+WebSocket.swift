/// A WebSocket route's handler: it owns the socket until it returns (the socket then closes with
/// 1000) or throws (1011). It runs as a task of its own, for as long as the connection lasts.
public typealias WebSocketHandler = @Sendable (WebSocket, HTTPRequest, RequestContext) async throws -> Void

/// Decides whether an upgrade may go ahead (credentials, limits): returning accepts it, throwing
/// an `HTTPResponseError` refuses it with that error's status, which the client sees as close
/// code 4000 + status (`4401`).
public typealias WebSocketUpgradeCheck = @Sendable (HTTPRequest, RequestContext) async throws -> Void

/// What a WebSocket route runs once the upgrade is accepted.
struct WebSocketRoute: Sendable {
    let configuration: WebSocketConfiguration
    let handler: WebSocketHandler
}

extension Router {
    /// Adds a route that upgrades `GET pattern` to a WebSocket (libwebsockets engine).
    ///
    /// The upgrade request goes through the whole middleware chain (access log, metrics,
    /// authentication, rate limits) and then `shouldUpgrade`; the route answers 101 to accept.
    /// libwebsockets 4.1 completes the handshake before asynchronous checks can run, so a refusal
    /// reaches the client as a close with code 4000 + status and the error's code as reason.
    /// Messages the client sends meanwhile wait in the socket's buffer. A plain `GET` without
    /// the upgrade is answered 426.
    ///
    /// ```swift
    /// router.webSocket("/v1/echo") { socket, request, context in
    ///     for await message in socket.inbound { try await socket.outbound.send(message) }
    /// }
    /// ```
    /// - Parameters:
    ///   - pattern: a path such as `/v1/websocket` (`{name}` segments capture parameters).
    ///   - configuration: the socket's limits and timers.
    ///   - shouldUpgrade: accepts (returns) or refuses (throws) the upgrade.
    ///   - handler: serves the socket.
    public mutating func webSocket(
        _ pattern: String, configuration: WebSocketConfiguration = WebSocketConfiguration(),
        shouldUpgrade: WebSocketUpgradeCheck? = nil, _ handler: @escaping WebSocketHandler
    ) {
        let route = WebSocketRoute(configuration: configuration, handler: handler)
        add(.get, pattern, crossOrigin: .none, body: .whole, webSocket: route) { request, context in
            guard context.isWebSocketUpgrade else {
                throw HTTPError(
                    .upgradeRequired, "this route takes WebSocket connections", headers: [("Upgrade", "websocket")])
            }
            try await shouldUpgrade?(request, context)
            return HTTPResponse(status: .switchingProtocols)
        }
    }

    /// The WebSocket route for `path`, if any.
    func webSocketRoute(for path: String) -> WebSocketRoute? {
        if case .found(let route, _) = match(method: .get, path: path) { return route.webSocket }
        return nil
    }
}
