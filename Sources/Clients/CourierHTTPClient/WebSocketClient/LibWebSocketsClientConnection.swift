#if !canImport(Darwin)
    internal import CLibWebSockets

    /// One client connection as the loop thread sees it: connecting, then open with its channel,
    /// then finished. Touched on the client's loop thread only.
    package final class LibWebSocketsClientConnection {
        enum Phase {
            /// The handshake is under way; the caller waits on the continuation.
            case connecting(CheckedContinuation<WebSocket, any Error>)
            /// Open: the channel carries the messages.
            case open(WebSocketChannel)
            /// The caller has been answered and the socket has ended (or is being killed).
            case finished
        }

        let id: UInt64
        let endpoint: WebSocketEndpoint
        let headers: WebSocketHandshakeHeaders
        let configuration: WebSocketConfiguration
        var phase: Phase
        /// lws's connection, once `lws_client_connect_via_info` has returned it.
        var wsi: OpaquePointer?
        /// When the handshake must be done (monotonic ns).
        let connectDeadline: UInt64
        var assembler: WebSocketMessageAssembler
        /// When the peer last sent a frame (a pong included), and when a ping last went out.
        var lastHeard: UInt64
        var lastPing: UInt64 = 0
        /// A ping is to go out at the next writable callback.
        var pingDue = false
        /// A close this side decided (idle, oversized, not UTF-8, shutdown), written before
        /// anything else at the next writable callback.
        var engineClose: WebSocketClose?
        /// A close is on its way: no more pings, no more messages handed to the reader.
        var closing = false
        /// The channel's own close is queued and lws has been told to drop the connection if
        /// it cannot be written within the grace.
        var closeTimerArmed = false
        /// Writes its frames, keeping the last one's buffer while deflate reads it.
        private let writer = LibWebSocketsFrameWriter()

        init(id: UInt64, request: LibWebSocketsClientRequest, now: UInt64) {
            self.id = id
            endpoint = request.endpoint
            headers = request.headers
            configuration = request.configuration
            phase = .connecting(request.continuation)
            connectDeadline = now &+ UInt64(max(1, request.configuration.connectTimeoutMilliseconds)) * 1_000_000
            assembler = WebSocketMessageAssembler(limit: request.configuration.maximumMessageBytes)
            lastHeard = now
        }

        var channel: WebSocketChannel? {
            if case .open(let channel) = phase { return channel }
            return nil
        }

        /// Answers the caller that is still waiting for the handshake, if any.
        /// - Returns: whether one was waiting.
        @discardableResult
        func fail(_ error: any Error) -> Bool {
            guard case .connecting(let continuation) = phase else { return false }
            phase = .finished
            continuation.resume(throwing: error)
            return true
        }

        /// Writes one frame of `payload` (LWS_PRE bytes of headroom are added).
        /// - Returns: `false` when lws could not write (the connection is to close).
        func write(_ payload: some Collection<UInt8>, as kind: lws_write_protocol) -> Bool {
            guard let wsi else { return false }
            return writer.write(payload, as: kind, on: wsi)
        }

        /// Sets the close frame lws sends when the callback then returns -1.
        func setCloseReason(_ close: WebSocketClose) {
            guard let wsi else { return }
            LibWebSocketsFrameWriter.setClose(close, on: wsi)
        }
    }
#endif
