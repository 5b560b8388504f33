/// A WebSocket route's handler: it owns the socket until it returns (the socket then closes with
/// 1000) or throws (1011). It runs as a task of its own, for as long as the connection lasts.
public typealias WebSocketHandler = @Sendable (WebSocket, HTTPRequest, RequestContext) async throws -> Void

/// Decides whether an upgrade may go ahead (credentials, limits): returning accepts it, throwing
/// an `HTTPResponseError` refuses it with that error's status, which the client sees as close
/// code 4000 + status (`4401`).
public typealias WebSocketUpgradeCheck = @Sendable (HTTPRequest, RequestContext) async throws -> Void

/// A WebSocket route's message handler (`Router.webSocket(_:configuration:shouldUpgrade:onMessage:)`):
/// called for each message, one at a time and in order, on the engine's loop thread (those that
/// arrived before the upgrade was accepted, and any that arrive while they are handed over, on
/// the thread that accepted it). It must not make the thread wait: it answers with `sendNow`, or
/// hands the work to a task of its own. It gets the socket and the message only; a handler that
/// needs the upgrade request (path parameters, the caller's identity) or to learn when the socket
/// closes is made per socket (`WebSocketHandlers`). The socket's `inbound` sequence is empty: its
/// messages are the handler's.
public typealias WebSocketMessageHandler = @Sendable (WebSocket, WebSocketMessage) -> Void

/// One socket's handlers on a message-handler route, made once per socket after its upgrade
/// was accepted (`Router.webSocket(_:configuration:shouldUpgrade:handlers:)`), so they can hold
/// what the upgrade request said (path parameters, the caller's identity).
public struct WebSocketHandlers: Sendable {
    /// Called for each message, as a `WebSocketMessageHandler` is.
    public var onMessage: WebSocketMessageHandler
    /// Called once when the connection has ended, after the last message, with how it ended (the
    /// peer's close if it sent one, else this side's, else 1006): on the engine's loop thread, or
    /// on the thread that accepted the upgrade when the connection ended before or while the
    /// buffered messages were handed over. It must not make the thread wait either.
    public var onClose: (@Sendable (WebSocket, WebSocketClose) -> Void)?

    /// Handlers for one socket.
    public init(
        onMessage: @escaping WebSocketMessageHandler, onClose: (@Sendable (WebSocket, WebSocketClose) -> Void)? = nil
    ) {
        self.onMessage = onMessage
        self.onClose = onClose
    }
}

/// Makes one socket's handlers from its upgrade request and context, on the thread that accepted
/// the upgrade, before any message is handed over. It must not read the socket's `inbound` (nor
/// start a task that does): the messages are the handlers'.
public typealias WebSocketHandlersFactory = @Sendable (WebSocket, HTTPRequest, RequestContext) -> WebSocketHandlers

/// What a WebSocket route runs once the upgrade is accepted.
struct WebSocketRoute: Sendable {
    /// How the socket is served.
    enum Serving: Sendable {
        /// A task that owns the socket for the connection's life.
        case task(WebSocketHandler)
        /// Handlers made per socket and called for each message and at the end, with no task
        /// held per socket.
        case eachMessage(WebSocketHandlersFactory)
    }

    let configuration: WebSocketConfiguration
    let serving: Serving
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
        add(
            WebSocketRoute(configuration: configuration, serving: .task(handler)), pattern, shouldUpgrade: shouldUpgrade
        )
    }

    /// Adds a WebSocket route whose messages are handed to `onMessage` one at a time on the
    /// engine's loop, with no task held per socket: for many sockets that mostly sit idle and
    /// answer each message at once from what the message says (an echo, a stateless lookup),
    /// where a task per socket would be most of their memory. The socket stays open until the
    /// peer closes it or the handler calls `socket.outbound.close()`; the upgrade (the chain and
    /// `shouldUpgrade`) goes as for `webSocket(_:configuration:shouldUpgrade:_:)`.
    ///
    /// ```swift
    /// router.webSocket("/v1/echo") { socket, message in
    ///     try? socket.outbound.sendNow(message)
    /// }
    /// ```
    /// - Parameters:
    ///   - pattern: a path such as `/v1/echo` (`{name}` segments match, but the handler does not
    ///     see the request).
    ///   - configuration: the socket's limits and timers.
    ///   - shouldUpgrade: accepts (returns) or refuses (throws) the upgrade.
    ///   - onMessage: handles each message; it must not make the thread wait.
    public mutating func webSocket(
        _ pattern: String, configuration: WebSocketConfiguration = WebSocketConfiguration(),
        shouldUpgrade: WebSocketUpgradeCheck? = nil, onMessage: @escaping WebSocketMessageHandler
    ) {
        webSocket(
            pattern, configuration: configuration, shouldUpgrade: shouldUpgrade,
            handlers: { _, _, _ in WebSocketHandlers(onMessage: onMessage) })
    }

    /// Adds a WebSocket route served, as `webSocket(_:configuration:shouldUpgrade:onMessage:)`,
    /// by handlers on the engine's loop with no task per socket, where the handlers are made for
    /// each socket from its upgrade request and learn when it closes: a room or a hub that
    /// registers sockets under the caller's identity and forgets them at the end.
    ///
    /// ```swift
    /// router.webSocket("/v1/rooms/{room}", handlers: { socket, request, _ in
    ///     let member = UUID()
    ///     let room = rooms.join(request.pathParameters["room"] ?? "", member, socket.outbound)
    ///     return WebSocketHandlers(
    ///         onMessage: { _, message in room.broadcast(message) },
    ///         onClose: { _, _ in room.leave(member) })
    /// })
    /// ```
    /// - Parameters:
    ///   - pattern: a path such as `/v1/rooms/{room}` (`{name}` segments capture parameters).
    ///   - configuration: the socket's limits and timers.
    ///   - shouldUpgrade: accepts (returns) or refuses (throws) the upgrade.
    ///   - handlers: makes the socket's handlers; it must not make the thread wait.
    public mutating func webSocket(
        _ pattern: String, configuration: WebSocketConfiguration = WebSocketConfiguration(),
        shouldUpgrade: WebSocketUpgradeCheck? = nil, handlers: @escaping WebSocketHandlersFactory
    ) {
        add(
            WebSocketRoute(configuration: configuration, serving: .eachMessage(handlers)), pattern,
            shouldUpgrade: shouldUpgrade)
    }

    private mutating func add(_ route: WebSocketRoute, _ pattern: String, shouldUpgrade: WebSocketUpgradeCheck?) {
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
