#if !canImport(Darwin)
    internal import CLibWebSockets
    import Foundation
    import Synchronization

    /// The state behind a client's libwebsockets context: its connections (loop thread only) and
    /// the mailbox through which callers on other threads reach the loop.
    package final class LibWebSocketsClientService: @unchecked Sendable {
        // @unchecked: `connections`, `context`, `tickDue`, `stopDeadline` and `protocolName` are
        // touched only on the client's loop thread (lws and libev call back on it alone, and
        // `attach` runs before the thread starts); other threads touch only `mailbox` (a
        // `Mutex`) and the immutable `shutdownGrace` and `loop`.
        private let mailbox = Mutex(LibWebSocketsClientMailbox())
        private var connections: [UInt64: LibWebSocketsClientConnection] = [:]
        private var context: OpaquePointer?
        private let loop: OpaquePointer
        private let shutdownGrace: UInt64
        /// The ticker has fired since the last periodic check.
        private var tickDue = false
        /// When a shutdown stops waiting for close handshakes (monotonic ns).
        private var stopDeadline: UInt64?
        /// How long a close this side started may take before lws drops the connection.
        private static let closeGraceSeconds: Int32 = 5
        /// Each connection's retry and idle policy: no lws validity checks (never freed; lws keeps
        /// the pointer). The loop's tick pings and closes idle sockets itself; lws's default (a
        /// ping after 300 s, a hangup at 310 s) kept a timer per connection in one sorted list,
        /// moved with a walk of the whole list on every ping received.
        nonisolated(unsafe) static let withoutValidityChecks: UnsafePointer<lws_retry_bo_t> = {
            let policy = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
            policy.initialize(to: lws_retry_bo_t())
            return UnsafePointer(policy)
        }()

        init(loop: OpaquePointer, configuration: WebSocketClientConfiguration) {
            self.loop = loop
            shutdownGrace = UInt64(max(0, configuration.shutdownGraceMilliseconds)) * 1_000_000
        }

        static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

        // MARK: - Any thread

        /// The context exists and the loop may be woken (before the loop thread starts).
        func attach(context: OpaquePointer) {
            self.context = context
            mailbox.withLock { $0.contextAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(context))) }
        }

        /// An id for a connection about to be submitted.
        func reserveID() -> UInt64 {
            mailbox.withLock { box in
                let id = box.nextID
                box.nextID += 1
                box.reserved.insert(id)
                return id
            }
        }

        /// Hands a connection request to the loop; answers it at once when the client is
        /// stopping or the caller was cancelled in the meantime.
        func submit(_ id: UInt64, _ request: LibWebSocketsClientRequest) {
            let refusal = mailbox.withLock { box -> (any Error)? in
                box.reserved.remove(id)
                if box.cancelledEarly.remove(id) != nil { return CancellationError() }
                guard !box.stopping, let context = box.context else {
                    return WebSocketError(.closed, "the WebSocket client has been shut down")
                }
                box.connects.append((id, request))
                lws_cancel_service(context)
                return nil
            }
            if let refusal { request.continuation.resume(throwing: refusal) }
        }

        /// The caller of `connect` was cancelled: stops the connection if it is not open yet.
        func cancel(_ id: UInt64) {
            let dropped = mailbox.withLock { box -> LibWebSocketsClientRequest? in
                if box.reserved.contains(id) {
                    box.cancelledEarly.insert(id)
                    return nil
                }
                if let index = box.connects.firstIndex(where: { $0.0 == id }) {
                    return box.connects.remove(at: index).1
                }
                if let context = box.context {
                    box.cancels.append(id)
                    lws_cancel_service(context)
                }
                return nil
            }
            dropped?.continuation.resume(throwing: CancellationError())
        }

        /// A channel has something to write.
        func wantsToWrite(_ id: UInt64) {
            mailbox.withLock { box in
                guard let context = box.context else { return }
                box.writes.append(id)
                lws_cancel_service(context)
            }
        }

        /// A channel's reader has made room.
        func resumeReading(_ id: UInt64) {
            mailbox.withLock { box in
                guard let context = box.context else { return }
                box.resumes.append(id)
                lws_cancel_service(context)
            }
        }

        /// Asks the loop to close every socket (1001) and stop.
        func requestStop() {
            mailbox.withLock { box in
                box.stopping = true
                if let context = box.context { lws_cancel_service(context) }
            }
        }

        // MARK: - The loop thread

        /// The ticker's call: periodic checks run at the next wake-up.
        func tick() {
            tickDue = true
            if let context { lws_cancel_service(context) }
        }

        /// The loop was woken: starts and cancels connections, asks for writable callbacks and
        /// reading, runs the periodic checks, and stops the loop once a shutdown is done.
        func wake() {
            let (connects, cancels, writes, resumes, stopping) = mailbox.withLock { box in
                defer {
                    box.connects = []
                    box.cancels = []
                    box.writes = []
                    box.resumes = []
                }
                return (box.connects, box.cancels, box.writes, box.resumes, box.stopping)
            }
            let now = Self.now()
            for (id, request) in connects { start(id, request, now: now) }
            for id in cancels {
                guard let connection = connections[id], connection.fail(CancellationError()) else { continue }
                kill(connection)
            }
            for id in writes {
                if let wsi = connections[id]?.wsi { lws_callback_on_writable(wsi) }
            }
            for id in resumes {
                if let wsi = connections[id]?.wsi { lws_rx_flow_control(wsi, 1) }
            }
            if stopping, stopDeadline == nil { beginStop(now: now) }
            if tickDue {
                tickDue = false
                check(now: now)
            }
            if let deadline = stopDeadline, connections.isEmpty || now >= deadline { courier_ev_break_all(loop) }
        }

        /// The loop has stopped: no caller may wake the context any more.
        func detach() {
            mailbox.withLock { box in
                box.contextAddress = nil
                box.stopping = true
            }
        }

        /// After `lws_context_destroy`: whatever lws did not report as closed ends now, and
        /// requests that arrived too late are refused.
        func finishAll() {
            for connection in connections.values {
                connection.fail(WebSocketError(.closed, "the WebSocket client has been shut down"))
                connection.channel?.ended()
            }
            connections = [:]
            let late = mailbox.withLock { box in
                defer { box.connects = [] }
                return box.connects
            }
            for (_, request) in late {
                request.continuation.resume(
                    throwing: WebSocketError(.closed, "the WebSocket client has been shut down"))
            }
        }

        private func start(_ id: UInt64, _ request: LibWebSocketsClientRequest, now: UInt64) {
            let connection = LibWebSocketsClientConnection(id: id, request: request, now: now)
            guard stopDeadline == nil, let context else {
                connection.fail(WebSocketError(.closed, "the WebSocket client has been shut down"))
                return
            }
            connections[id] = connection
            let endpoint = request.endpoint
            let address = strdup(endpoint.host)
            let path = strdup(endpoint.target)
            let host = strdup(request.headers.host ?? endpoint.hostHeader)
            let origin = request.headers.origin.map { strdup($0) }
            let name = strdup(LibWebSocketsClientLoop.protocolName)
            defer { for string in [address, path, host, origin ?? nil, name] { Foundation.free(string) } }
            var info = lws_client_connect_info()
            info.context = context
            info.address = UnsafePointer(address)
            info.port = Int32(endpoint.port)
            info.ssl_connection = endpoint.secure ? Int32(LCCSCF_USE_SSL.rawValue) : 0
            info.path = UnsafePointer(path)
            info.host = UnsafePointer(host)
            info.origin = origin.flatMap { UnsafePointer($0) }
            info.local_protocol_name = UnsafePointer(name)
            info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(id))
            info.retry_and_idle_policy = Self.withoutValidityChecks
            // lws may report a failure (CLIENT_CONNECTION_ERROR) before this returns.
            let wsi = lws_client_connect_via_info(&info)
            if let wsi, connections[id] != nil {
                connection.wsi = wsi
            } else if wsi == nil {
                connections[id] = nil
                connection.fail(
                    WebSocketError(.connectFailed, "cannot connect to \(endpoint.host):\(endpoint.port)"))
            }
        }

        /// Periodic: connect deadlines, slow readers, pings and the idle timeout.
        private func check(now: UInt64) {
            for connection in connections.values {
                switch connection.phase {
                case .connecting:
                    guard now >= connection.connectDeadline else { continue }
                    let endpoint = connection.endpoint
                    connection.fail(
                        WebSocketError(
                            .timedOut,
                            "no WebSocket handshake with \(endpoint.host):\(endpoint.port) within "
                                + "\(connection.configuration.connectTimeoutMilliseconds) ms"))
                    kill(connection)
                case .open(let channel):
                    guard !connection.closing, let wsi = connection.wsi else { continue }
                    if channel.checkSlowReader() { lws_callback_on_writable(wsi) }
                    if channel.isClosing {
                        // The caller's close or the slow-reader cut-off waits in the queue; a peer
                        // that reads nothing never lets it be written: lws drops it after the grace.
                        if !connection.closeTimerArmed {
                            connection.closeTimerArmed = true
                            courier_lws_close_within(wsi, Self.closeGraceSeconds)
                        }
                        continue
                    }
                    let configuration = connection.configuration
                    let silent = now &- connection.lastHeard
                    let idle = UInt64(max(0, configuration.idleTimeoutMilliseconds)) * 1_000_000
                    let ping = UInt64(max(0, configuration.pingIntervalMilliseconds)) * 1_000_000
                    if idle > 0, silent >= idle {
                        closeFromHere(connection, WebSocketClose(.goingAway, reason: "idle timeout"))
                    } else if ping > 0, silent >= ping, now &- connection.lastPing >= ping {
                        connection.lastPing = now
                        connection.pingDue = true
                        lws_callback_on_writable(wsi)
                    }
                case .finished:
                    continue
                }
            }
        }

        private func beginStop(now: UInt64) {
            stopDeadline = now &+ shutdownGrace
            for connection in connections.values {
                if connection.fail(WebSocketError(.closed, "the WebSocket client has been shut down")) {
                    kill(connection)
                } else {
                    closeFromHere(connection, WebSocketClose(.goingAway, reason: "client shutting down"))
                }
            }
        }

        /// Drops a connection that is not open (lws closes it at its next pass).
        private func kill(_ connection: LibWebSocketsClientConnection) {
            if let wsi = connection.wsi { courier_lws_client_kill(wsi) }
        }

        /// Closes an open connection with `close` at its next writable callback (or drops it after
        /// a grace period when that never comes).
        private func closeFromHere(_ connection: LibWebSocketsClientConnection, _ close: WebSocketClose) {
            guard !connection.closing, let wsi = connection.wsi else { return }
            connection.closing = true
            connection.engineClose = close
            connection.channel?.engineClosing(close)
            courier_lws_close_within(wsi, Self.closeGraceSeconds)
            lws_callback_on_writable(wsi)
        }

        // MARK: - Callbacks (the loop thread)

        /// The handshake is done: the caller gets its socket.
        func established(_ id: UInt64, _ wsi: OpaquePointer) {
            guard let connection = connections[id], case .connecting(let continuation) = connection.phase else {
                return
            }
            // With permessage-deflate on, every message is compressed afresh (RFC 7692 lets the
            // client decide this alone). lws 4.1.6 aborts the process on an empty message sent
            // on a deflate stream that has already flushed (zlib has nothing to emit, and lws
            // asserts it gets at least 4 bytes); a fresh stream always emits an empty block. It
            // also frees the compressor's memory between messages. -1: deflate is not in use.
            _ = lws_set_extension_option(wsi, "permessage-deflate", "client_no_context_takeover", nil)
            let channel = WebSocketChannel(
                configuration: connection.configuration,
                transport: WebSocketChannelTransport(
                    wantsToWrite: { [weak self] in self?.wantsToWrite(id) },
                    resumeReading: { [weak self] in self?.resumeReading(id) }),
                now: Self.now)
            connection.phase = .open(channel)
            connection.lastHeard = Self.now()
            continuation.resume(returning: WebSocket(channel: channel))
        }

        /// The connection or its handshake failed (`message` is lws's reason).
        func connectFailed(_ id: UInt64, _ message: String) {
            guard let connection = connections.removeValue(forKey: id) else { return }
            let endpoint = connection.endpoint
            connection.fail(
                WebSocketError(
                    .connectFailed,
                    "cannot open a WebSocket to \(endpoint.secure ? "wss" : "ws")://\(endpoint.hostHeader): \(message)")
            )
        }

        /// Appends the caller's headers to the handshake.
        /// - Returns: `false` when they do not fit.
        func appendHeaders(
            _ id: UInt64, _ wsi: OpaquePointer, _ cursor: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
            room: Int
        ) -> Bool {
            guard let connection = connections[id], let start = cursor.pointee else { return true }
            let end = start + room
            for (name, value) in connection.headers.extra {
                let added = Array((name + ":").utf8CString).withUnsafeBufferPointer { nameBytes in
                    Array(value.utf8).withUnsafeBufferPointer { valueBytes in
                        nameBytes.withMemoryRebound(to: UInt8.self) { name in
                            lws_add_http_header_by_name(
                                wsi, name.baseAddress, valueBytes.baseAddress, Int32(valueBytes.count), cursor, end)
                        }
                    }
                }
                if added != 0 { return false }
            }
            return true
        }

        /// Whether to offer the extension named `name` (only permessage-deflate is registered).
        func offersExtension(_ id: UInt64) -> Bool { connections[id]?.configuration.compression ?? false }

        /// A piece of a message has arrived (`bytes` lives only during the callback).
        /// - Returns: `false` to close the connection (the close reason is already set).
        func receive(_ id: UInt64, _ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) -> Bool {
            guard let connection = connections[id], let channel = connection.channel else { return true }
            connection.lastHeard = Self.now()
            let outcome = connection.assembler.append(
                bytes, binary: lws_frame_is_binary(wsi) != 0, final: lws_is_final_fragment(wsi) != 0)
            if connection.closing { return true }
            let close: WebSocketClose
            switch outcome {
            case .partial: return true
            case .message(let message):
                if !channel.received(message) { lws_rx_flow_control(wsi, 0) }
                return true
            case .tooBig:
                close = WebSocketClose(
                    .messageTooBig, reason: "message over \(connection.configuration.maximumMessageBytes) bytes")
            case .invalidText:
                close = WebSocketClose(.invalidPayload, reason: "text message is not UTF-8")
            }
            connection.closing = true
            channel.engineClosing(close)
            connection.setCloseReason(close)
            return false
        }

        /// A pong (or any frame) shows the peer is there.
        func heard(_ id: UInt64) { connections[id]?.lastHeard = Self.now() }

        /// The peer sent a close frame; lws answers it.
        func peerClosed(_ id: UInt64, _ payload: UnsafeRawBufferPointer) {
            guard let connection = connections[id] else { return }
            connection.closing = true
            connection.channel?.peerClosed(WebSocketClose(payload: payload))
        }

        /// The connection may be written: one frame (a close, a ping, or the next message).
        /// - Returns: what the callback returns (-1 closes, after the close frame if one is set).
        func writable(_ id: UInt64) -> Int32 {
            guard let connection = connections[id], let channel = connection.channel, let wsi = connection.wsi
            else { return 0 }
            if let close = connection.engineClose {
                connection.setCloseReason(close)
                return -1
            }
            if connection.pingDue {
                connection.pingDue = false
                guard connection.write(EmptyCollection(), as: LWS_WRITE_PING) else { return -1 }
                if channel.hasOutgoing { lws_callback_on_writable(wsi) }
                return 0
            }
            switch channel.nextOutgoing() {
            case nil:
                return 0
            case .close(let close):
                connection.closing = true
                connection.setCloseReason(close)
                return -1
            case .message(.text(let text)):
                guard connection.write(text.utf8, as: LWS_WRITE_TEXT) else { return -1 }
            case .message(.binary(let bytes)):
                guard connection.write(bytes, as: LWS_WRITE_BINARY) else { return -1 }
            }
            if channel.hasOutgoing { lws_callback_on_writable(wsi) }
            return 0
        }

        /// The connection is gone (closed, or lws freed it).
        func closed(_ id: UInt64) {
            guard let connection = connections.removeValue(forKey: id) else { return }
            let endpoint = connection.endpoint
            connection.fail(
                WebSocketError(.connectFailed, "the connection to \(endpoint.hostHeader) closed during the handshake"))
            connection.channel?.ended()
            connection.phase = .finished
        }
    }
#endif
