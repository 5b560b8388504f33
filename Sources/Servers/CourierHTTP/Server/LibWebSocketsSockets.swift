internal import CLibWebSockets
import CourierCore
import Foundation
import Synchronization

/// The WebSockets of one libwebsockets context: upgrades, frames in and out, pings and idle
/// timers, and the mailbox through which channels on other threads ask the loop to write or to
/// read again.
///
/// Ids of sockets have the top bit set, so they never collide with the HTTP exchanges' ids that
/// share lws's per-session slot.
final class LibWebSocketsSockets: @unchecked Sendable {
    // @unchecked: `sockets` and `closingAll` are touched only on the engine's service
    // thread (every method below but those of `Mailbox` is called from lws's callback or the
    // service's `wake` on that thread); other threads reach this object only through `mailbox`.
    static let idBit: UInt64 = 1 << 63

    private let responder: Responder
    private let extraHeaderNames: [String]
    private let mailbox: Mailbox
    private var sockets = SlotTable<LibWebSocketsSocket>(tag: idBit)
    /// Set when the server stops: every socket has been sent 1001, and new ones are closed at once.
    private(set) var closingAll = false

    /// What channels hand to the loop; `wake` wakes it (`lws_cancel_service`, only while the
    /// context exists).
    final class Mailbox: Sendable {
        private struct Pending {
            var writes: [UInt64] = []
            var resumes: [UInt64] = []
        }
        private let pending = Mutex(Pending())
        private let wake: @Sendable () -> Void

        init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

        /// Only the first post after the loop's last `take()` wakes it: the loop takes everything
        /// posted in one go, and waking it once per message had every sender queue on the
        /// service's lock around `lws_cancel_service` (a syscall) under fan-out.
        func wantsToWrite(_ id: UInt64) {
            if post({ $0.writes.append(id) }) { wake() }
        }

        func resumeReading(_ id: UInt64) {
            if post({ $0.resumes.append(id) }) { wake() }
        }

        /// Adds to what the loop will take; whether nothing was waiting before (so the loop must be woken).
        private func post(_ add: (inout Pending) -> Void) -> Bool {
            pending.withLock { pending in
                let wasEmpty = pending.writes.isEmpty && pending.resumes.isEmpty
                add(&pending)
                return wasEmpty
            }
        }

        func take() -> (writes: [UInt64], resumes: [UInt64]) {
            pending.withLock { pending in
                defer { pending = Pending() }
                return (pending.writes, pending.resumes)
            }
        }
    }

    private let executor: HandlerExecutor
    /// The loop's executor (set once by the service before the loop runs): offered to handlers
    /// as `WebSocket.loopExecutor`, and the received messages are handed over inside its `run`,
    /// so a reader on it handles them in the same turn without waking the loop.
    var loopExecutor: LoopExecutor?

    init(
        responder: Responder, extraHeaderNames: [String], executor: HandlerExecutor,
        wake: @escaping @Sendable () -> Void
    ) {
        self.responder = responder
        self.executor = executor
        self.extraHeaderNames = extraHeaderNames
        mailbox = Mailbox(wake: wake)
    }

    static func isSocket(_ id: UInt64) -> Bool { id & idBit != 0 }

    /// Sockets open now.
    var count: Int { sockets.count }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: - lws callbacks (service thread)

    /// The handshake is done (`LWS_CALLBACK_ESTABLISHED`; the request's headers are still
    /// readable): opens the channel and starts the route's task.
    /// - Parameter remoteAddress: the connection's peer.
    /// - Returns: the socket's id, or `nil` to close the connection.
    func established(_ wsi: OpaquePointer, remoteAddress: String) -> UInt64? {
        guard
            let exchange = LibWebSocketsExchange(
                wsi: wsi, remoteAddress: remoteAddress, extraHeaderNames: extraHeaderNames)
        else { return nil }
        // With permessage-deflate on, every message this side sends is compressed afresh: lws
        // 4.1.6 aborts the process on an empty message sent on a deflate stream that has already
        // flushed, and a fresh stream frees the compressor between messages. (In 4.1 the
        // "client_" option is the one that resets this side's compressor, on either role; -1
        // when deflate is not in use.)
        _ = lws_set_extension_option(wsi, "permessage-deflate", "client_no_context_takeover", nil)
        let request = exchange.requestLeavingTheLoop()
        let configuration =
            responder.router.webSocketRoute(for: request.path)?.configuration ?? WebSocketConfiguration()
        let mailbox = mailbox
        // The channel's transport names the socket by the id it is given here.
        let (id, socket) = sockets.insert { id in
            let channel = WebSocketChannel(
                configuration: configuration,
                transport: WebSocketChannelTransport(
                    wantsToWrite: { mailbox.wantsToWrite(id) }, resumeReading: { mailbox.resumeReading(id) }),
                now: { Self.now() })
            return LibWebSocketsSocket(wsi: wsi, channel: channel, now: Self.now())
        }
        let channel = socket.channel
        if closingAll {
            channel.close(.serverStopping)
        } else {
            Self.serve(
                channel, request: request, startedAt: exchange.started, responder: responder, executor: executor,
                loopExecutor: loopExecutor)
        }
        return id
    }

    /// Runs the upgrade through the chain on a short task, then the route's handler on a task of
    /// its own that lives as long as the socket (a message handler gets no task: the channel
    /// calls it). Two tasks, because a task keeps the memory its deepest await needed until it
    /// ends: the middleware chain's frames would stay with every idle socket.
    private static func serve(
        _ channel: WebSocketChannel, request: HTTPRequest, startedAt: UInt64, responder: Responder,
        executor: HandlerExecutor, loopExecutor: LoopExecutor?
    ) {
        Task(executorPreference: executor) {
            let (response, routed, context, route) = await responder.respondToUpgrade(request, startedAt: startedAt)
            guard response.status == .switchingProtocols, let route else {
                channel.close(WebSocketClose(.refused(response.status), reason: Self.errorCode(response)))
                return
            }
            let socket = WebSocket(channel: channel, loopExecutor: loopExecutor)
            switch route.serving {
            case .eachMessage(let makeHandlers):
                // No task stays with the socket: the channel calls the handlers (the cycle through
                // `socket` ends when the connection does, and the channel drops them).
                let handlers = makeHandlers(socket, routed, context)
                let onMessage = handlers.onMessage
                var onEnd: (@Sendable (WebSocketClose) -> Void)?
                if let onClose = handlers.onClose { onEnd = { close in onClose(socket, close) } }
                channel.handleEachMessage({ message in onMessage(socket, message) }, onEnd: onEnd)
            case .task(let handler):
                Task(executorPreference: executor) {
                    do {
                        try await handler(socket, routed, context)
                        channel.close(WebSocketClose(.normalClosure))
                    } catch {
                        channel.close(WebSocketClose(.internalError, reason: "the handler failed"))
                    }
                }
            }
        }
    }

    /// The `code` of a Courier error body, else the status's reason phrase.
    private static func errorCode(_ response: HTTPResponse) -> String {
        if let body = try? JSONParser.parse(response.body), case .string(let code)? = body["error"]?["code"] {
            return code
        }
        return response.status.reasonPhrase
    }

    /// Whether the upgrade request on `wsi` is for a path with a WebSocket route.
    func hasRoute(_ wsi: OpaquePointer) -> Bool { route(wsi) != nil }

    /// Whether the route being upgraded on `wsi` takes `permessage-deflate` (during the
    /// handshake, while the request's headers are readable).
    func allowsCompression(_ wsi: OpaquePointer) -> Bool { route(wsi)?.configuration.compression ?? false }

    /// The WebSocket route of the upgrade request on `wsi`, while its headers are readable.
    private func route(_ wsi: OpaquePointer) -> WebSocketRoute? {
        guard let path = LibWebSocketsHeaders.copy(wsi, WSI_TOKEN_GET_URI) else { return nil }
        return responder.router.webSocketRoute(for: path)
    }

    /// A piece of a message has arrived (`bytes` lives only during the callback).
    /// - Returns: what the callback returns (-1 closes the connection).
    func receive(_ id: UInt64, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let socket = sockets[id] else { return 0 }
        heard(socket)
        let wsi = socket.wsi
        let close: WebSocketClose
        switch socket.assembler.append(
            bytes, binary: lws_frame_is_binary(wsi) != 0, final: lws_is_final_fragment(wsi) != 0)
        {
        case .partial:
            return 0
        case .message(let message):
            let channel = socket.channel
            var goOn = true
            if let loopExecutor {
                loopExecutor.run { goOn = channel.received(message) }
            } else {
                goOn = channel.received(message)
            }
            if !goOn { lws_rx_flow_control(wsi, 0) }
            return 0
        case .tooBig:
            close = WebSocketClose(
                .messageTooBig, reason: "a message is over \(socket.configuration.maximumMessageBytes) bytes")
        case .invalidText:
            // lws checks UTF-8 itself (LWS_SERVER_OPTION_VALIDATE_UTF8) and closes first.
            close = WebSocketClose(.invalidPayload, reason: "text that is not UTF-8")
        }
        socket.channel.engineClosing(close)
        socket.setClose(close)
        return -1
    }

    /// A pong (or any control frame lws handles itself) arrived.
    func pong(_ id: UInt64) {
        if let socket = sockets[id] { heard(socket) }
    }

    private func heard(_ socket: LibWebSocketsSocket) {
        socket.lastHeard = Self.now()
        socket.pinged = false
    }

    /// The peer sent a close frame (`payload` lives only during the callback); lws answers it.
    func peerClosing(_ id: UInt64, _ payload: UnsafeRawBufferPointer) {
        sockets[id]?.channel.peerClosed(WebSocketClose(payload: payload))
    }

    /// The socket may be written: a due ping, else the channel's next message or close.
    /// - Returns: what the callback returns (-1 closes the connection, after the close frame).
    func writable(_ id: UInt64) -> Int32 {
        guard let socket = sockets[id] else { return 0 }
        if socket.pingDue {
            socket.pingDue = false
            socket.pinged = true
            // Never empty: lws 4.1 reports no pong with an empty payload (`LWS_CALLBACK_RECEIVE_PONG`
            // is skipped). ASCII: with UTF-8 validation on, lws 4.1 checks pong payloads too and
            // closes with 1007 on binary ones. The peer echoes what the ping carries.
            if !socket.write(Array(String(Self.now() / 1_000_000).utf8), LWS_WRITE_PING) { return -1 }
            if socket.channel.hasOutgoing { lws_callback_on_writable(socket.wsi) }
            return 0
        }
        switch socket.channel.nextOutgoing() {
        case nil:
            return 0
        case .close(let close):
            socket.setClose(close)
            return -1
        case .message(let message):
            let written: Bool
            switch message {
            case .text(let text): written = socket.write(Array(text.utf8), LWS_WRITE_TEXT)
            case .binary(let bytes): written = socket.write(bytes, LWS_WRITE_BINARY)
            }
            if !written { return -1 }
            if socket.channel.hasOutgoing { lws_callback_on_writable(socket.wsi) }
            return 0
        }
    }

    /// Checks every socket's timers (from the loop's 100 ms tick): closes an idle socket (1001),
    /// sends a due ping, cuts off a slow reader. One pass over all sockets rather than an lws
    /// timer each: lws 4.1 keeps its timers in one sorted list and walks it on every insertion,
    /// so re-arming a timer per socket grew with the square of the sockets and stalled the loop
    /// near 10,000 idle ones (courier-bench websocket).
    func tick() {
        let now = Self.now()
        // A copy of the table (its storage shared, not copied): the pass may not hold an access
        // to `sockets` while what it calls could reach it.
        let sockets = sockets
        sockets.forEach { socket in
            let configuration = socket.configuration
            let quiet = now &- socket.lastHeard
            if quiet >= Self.nanoseconds(configuration.idleTimeoutMilliseconds) {
                if !socket.channel.isClosing {
                    socket.channel.close(WebSocketClose(.goingAway, reason: "idle"))
                    lws_callback_on_writable(socket.wsi)
                    socket.armCloseGrace()
                }
                return
            }
            if quiet >= Self.nanoseconds(configuration.pingIntervalMilliseconds), !socket.pinged, !socket.pingDue {
                socket.pingDue = true
                lws_callback_on_writable(socket.wsi)
            }
            if socket.channel.checkSlowReader() {
                lws_callback_on_writable(socket.wsi)
                socket.armCloseGrace()
            }
        }
    }

    /// The connection is gone: the channel ends (its reader and senders learn how).
    func closed(_ id: UInt64) {
        guard let socket = sockets.remove(id) else { return }
        socket.channel.ended()
    }

    /// Handles what channels posted: sockets with a message to send go into `writable`, which
    /// the service treats as writable before the loop waits (a writable callback would cost a
    /// turn and two `epoll_ctl` calls); reading resumed.
    func wake(writable: inout [OpaquePointer?]) {
        let (writes, resumes) = mailbox.take()
        for id in writes {
            guard let socket = sockets[id] else { continue }
            writable.append(socket.wsi)
            socket.armCloseGrace()
        }
        for id in resumes {
            if let socket = sockets[id] { lws_rx_flow_control(socket.wsi, 1) }
        }
    }

    /// The server is stopping: sends every socket a 1001 close (after what its queue holds).
    func closeAll() {
        guard !closingAll else { return }
        closingAll = true
        let sockets = sockets
        sockets.forEach { $0.channel.close(.serverStopping) }
    }

    private static func nanoseconds(_ milliseconds: Int) -> UInt64 { UInt64(max(0, milliseconds)) * 1_000_000 }
}
