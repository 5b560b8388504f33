#if !canImport(Darwin)
    import Foundation

    /// Opens WebSockets to servers (`ws://` and `wss://`). On Linux one libwebsockets context on
    /// a thread of its own serves every connection of a client; on Apple platforms each
    /// connection is a `URLSessionWebSocketTask`. Either way a connection is a `WebSocket`.
    ///
    /// ```swift
    /// let client = try WebSocketClient()
    /// let socket = try await client.connect(to: "wss://example.com/feed",
    ///                                       headers: [("Authorization", "Bearer …")])
    /// try await socket.outbound.send(text: "hello")
    /// for await message in socket.inbound { print(message) }
    /// client.shutdown()
    /// ```
    public final class WebSocketClient: Sendable {
        private let loop: LibWebSocketsClientLoop

        /// Starts the client's context and its thread.
        /// - Throws: `WebSocketError` `connectFailed` when the trusted-certificates file cannot be
        ///   read or the context cannot be created.
        public init(configuration: WebSocketClientConfiguration = .init()) throws {
            loop = try LibWebSocketsClientLoop(configuration: configuration)
        }

        deinit { loop.stop() }

        /// Opens a WebSocket to `url` and waits for the handshake.
        /// - Parameters:
        ///   - url: `ws://host[:port]/path?query` or `wss://…`.
        ///   - headers: sent with the handshake (`Authorization`, cookies…); `Origin` and `Host`
        ///     replace the handshake's own; the WebSocket headers themselves cannot be set.
        ///   - configuration: the socket's limits and timers; `connectTimeoutMilliseconds` bounds
        ///     the connection and the handshake together.
        /// - Returns: the open socket.
        /// - Throws: `WebSocketError` `invalidURL`; `connectFailed` (refused, unknown host, TLS or
        ///   certificate failure, a status other than 101, a bad header); `timedOut`; `closed`
        ///   after `shutdown()`; `CancellationError` when the task is cancelled (the connection is
        ///   dropped).
        public func connect(
            to url: String, headers: [(String, String)] = [], configuration: WebSocketConfiguration = .init()
        ) async throws -> WebSocket {
            let endpoint = try WebSocketEndpoint(parsing: url)
            let handshake = try WebSocketHandshakeHeaders(headers)
            try Task.checkCancellation()
            let service = loop.service
            let id = service.reserveID()
            let socket = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    service.submit(
                        id,
                        LibWebSocketsClientRequest(
                            endpoint: endpoint, headers: handshake, configuration: configuration,
                            continuation: continuation))
                }
            } onCancel: {
                service.cancel(id)
            }
            if Task.isCancelled {
                // Opened just as the task was cancelled: nobody will use it.
                socket.outbound.close(.goingAway)
                throw CancellationError()
            }
            return socket
        }

        /// Opens a WebSocket to `url`; see `connect(to:headers:configuration:)`.
        public func connect(
            to url: URL, headers: [(String, String)] = [], configuration: WebSocketConfiguration = .init()
        ) async throws -> WebSocket {
            try await connect(to: url.absoluteString, headers: headers, configuration: configuration)
        }

        /// Closes every socket with 1001 (waiting up to `shutdownGraceMilliseconds` for their
        /// close handshakes), then stops the client's thread; connects still under way fail with
        /// `closed`. Blocks until the thread has ended: call it off Swift's cooperative pool when
        /// that matters. Calling it again, or dropping the client, does nothing more.
        public func shutdown() { loop.stop() }
    }
#endif
