#if !canImport(Darwin)
    /// A connection a caller asked for, on its way to the client's loop thread.
    package struct LibWebSocketsClientRequest: Sendable {
        let endpoint: WebSocketEndpoint
        let headers: WebSocketHandshakeHeaders
        let configuration: WebSocketConfiguration
        /// Resumed on the loop thread: with the socket once the handshake is done, or with why not.
        let continuation: CheckedContinuation<WebSocket, any Error>
    }
#endif
