internal import CLibWebSockets
import Foundation
import Synchronization

/// The state behind one libwebsockets context: the requests being served, and the mailbox
/// through which handlers on other threads hand their responses back to the loop.
final class LibWebSocketsService: @unchecked Sendable {
    // @unchecked: `exchanges`, `openConnections`, `declinedUpgrade`, `lastSocketTick` and `loop` are touched only on the
    // engine's service thread (lws and libev call back on it alone); what other threads (the
    // handlers' tasks) touch is `mailbox` (a `Mutex`) and the immutable `responder`.
    let responder: Responder
    /// The unknown header names to look up besides the engine's own list, lowercased.
    let extraHeaderNames: [String]
    private let loop: OpaquePointer
    /// The requests in progress, by the id lws's per-session data holds.
    private var exchanges = SlotTable<LibWebSocketsExchange>()
    /// Connections lws has created and not yet destroyed.
    private var openConnections = 0
    private let maximumConnections: Int
    private let mailbox = LoopMailbox()
    /// Plaintext requests asking for HTTP/2, kept on HTTP/1.1 (service thread only).
    var declinedUpgrade = DeclinedUpgrade()
    /// When the sockets' timers were last checked (service thread only).
    private var lastSocketTick: UInt64 = 0
    /// The context's WebSockets (set once, at the end of `init`).
    private(set) var sockets: LibWebSocketsSockets!
    /// Where `.onLoop` routes run: this context's loop thread (set once, at the end of `init`).
    private(set) var loopExecutor: LoopExecutor!

    private struct Mailbox: ~Copyable {
        /// The context's address while the loop runs; `nil` before and after (an address, as
        /// pointers are not `Sendable`).
        var contextAddress: UInt?

        var context: OpaquePointer? { contextAddress.flatMap { OpaquePointer(bitPattern: $0) } }
        var responses: [(UInt64, HTTPResponse)] = []
        /// Streamed answers whose producer has added a chunk (or finished) since the loop found
        /// their pipe empty.
        var streamsReady: [UInt64] = []
        /// The loop has been woken for what is in the mailbox and has not taken it yet: later
        /// answers join the batch without waking it again.
        var wakePending = false
        var stopRequested = false
        var stopDeadline: UInt64 = 0
    }

    /// The mailbox in an object of its own, which what wakes the loop from other threads (the
    /// WebSockets, the loop's executor) holds in place of the service. A `weak` reference to the
    /// service would give it a side table, and every retain of it on the loop (each lws
    /// callback) would then take the runtime's slow path.
    private final class LoopMailbox: Sendable {
        let state = Mutex(Mailbox())

        /// Wakes the loop (any thread), unless the context is gone.
        func wake() {
            state.withLock { box in
                if let context = box.context { lws_cancel_service(context) }
            }
        }
    }

    /// Where handlers run (shared by the loops of a group).
    let executor: HandlerExecutor

    init(responder: Responder, loop: OpaquePointer, maximumConnections: Int, executor: HandlerExecutor) {
        self.executor = executor
        extraHeaderNames = responder.configuration.extraHeaderNames.map { $0.lowercased() }
        self.responder = responder
        self.loop = loop
        self.maximumConnections = max(1, maximumConnections)
        sockets = LibWebSocketsSockets(
            responder: responder, extraHeaderNames: extraHeaderNames, executor: executor
        ) { [mailbox] in
            mailbox.wake()
        }
        loopExecutor = LoopExecutor { [mailbox] in mailbox.wake() }
        sockets.loopExecutor = loopExecutor
    }

    /// The context exists and the loop may be woken.
    func attach(context: OpaquePointer) {
        mailbox.state.withLock { $0.contextAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(context))) }
    }

    /// The loop has stopped (on its thread); responses that arrive from now on are dropped, and
    /// `.onLoop` handlers still running go on in the shared pool.
    func detach() {
        mailbox.state.withLock { box in
            box.contextAddress = nil
            // What WebSockets and loop tasks hold may outlive the service: let go of the answers.
            box.responses = []
            box.streamsReady = []
        }
        loopExecutor.stop()
    }

    /// Asks the loop to stop (any thread): WebSockets are sent 1001 and the loop runs until they
    /// have closed or `deadline` (monotonic nanoseconds) has passed.
    func requestStop(deadline: UInt64) {
        mailbox.state.withLock { box in
            box.stopRequested = true
            box.stopDeadline = deadline
            if let context = box.context { lws_cancel_service(context) }
        }
    }

    /// Hands a handler's response back to the loop (any thread). Only the first answer of a batch
    /// wakes the loop (`lws_cancel_service` is a write to a pipe and a wake-up); the others join
    /// it, and the loop takes them all under one lock. Waking the loop under the lock means the
    /// context cannot be destroyed in between.
    private func deliver(_ id: UInt64, _ response: HTTPResponse) {
        mailbox.state.withLock { box in
            guard let context = box.context else { return }
            box.responses.append((id, response))
            if !box.wakePending {
                box.wakePending = true
                lws_cancel_service(context)
            }
        }
    }

    /// A streamed answer has more to write (any thread).
    private func streamReady(_ id: UInt64) {
        mailbox.state.withLock { box in
            guard let context = box.context else { return }
            box.streamsReady.append(id)
            if !box.wakePending {
                box.wakePending = true
                lws_cancel_service(context)
            }
        }
    }

    // MARK: - On the service thread

    /// A connection has been accepted: whether to keep it, or close it before reading.
    func admitsConnection() -> Bool {
        guard openConnections >= maximumConnections else { return true }
        responder.metrics.recordRefusedConnection()
        return false
    }

    /// lws has created a connection's state (after `admitsConnection`).
    func connectionOpened() {
        openConnections += 1
        accepted.add(1, ordering: .relaxed)
    }

    /// Connections (the listening socket included) this context has created, for any thread.
    let accepted = Atomic(0)

    /// lws is freeing a connection's state (the listening socket's too, when the context goes).
    func connectionClosed(_ wsi: OpaquePointer) {
        openConnections = max(0, openConnections - 1)
        declinedUpgrade.forget(wsi)
        for index in writableNow.indices where writableNow[index] == wsi { writableNow[index] = nil }
        if let kept = lws_get_opaque_user_data(wsi) {
            lws_set_opaque_user_data(wsi, nil)
            Unmanaged<PeerAddress>.fromOpaque(kept).release()
        }
    }

    /// The connection's peer address. Read once per connection (`getpeername`, a system call)
    /// and kept on it, as lws's per-connection user data, until lws destroys the connection:
    /// every request of a keep-alive connection has the same peer.
    func peerAddress(_ wsi: OpaquePointer) -> String {
        if let kept = lws_get_opaque_user_data(wsi) {
            return Unmanaged<PeerAddress>.fromOpaque(kept).takeUnretainedValue().text
        }
        let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { peer in
            peer.initialize(repeating: 0)
            lws_get_peer_simple(wsi, peer.baseAddress, peer.count)
            return String(cString: peer.baseAddress!)
        }
        lws_set_opaque_user_data(wsi, Unmanaged.passRetained(PeerAddress(text)).toOpaque())
        return text
    }

    /// A connection's peer address, kept on the connection by `peerAddress`.
    private final class PeerAddress {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// A request's headers are in: starts an exchange, and runs the handler at once when there is
    /// no body to wait for.
    func begin(_ exchange: LibWebSocketsExchange) -> UInt64 {
        let id = exchanges.insert(exchange)
        responder.lifecycle.enter()
        let configuration = responder.configuration
        exchange.match = responder.router.match(method: exchange.method, path: exchange.path)
        if let length = exchange.declaredLength, length > Int64(configuration.maximumBodyBytes) {
            // Answered at once, without waiting for the body; what arrives meanwhile is dropped and
            // the connection closes after the answer.
            exchange.closeAfter = true
            dispatch(id, exchange, outcome: .tooLarge)
        } else if exchange.expectsBody {
            exchange.bodyDeadline =
                exchange.started &+ UInt64(max(1, configuration.requestTimeoutMilliseconds)) * 1_000_000
            armBodyTimer(exchange)
            if case .found(let route, _) = exchange.match, route.body == .stream {
                // The handler runs now and reads the body as it arrives.
                exchange.feed = RequestBodyFeed()
                dispatch(id, exchange, outcome: .complete)
            }
        } else {
            // lws expects a body after a POST, PUT or PATCH without `Content-Length` (and reads
            // one up to 100 MB); such a connection is closed after the answer.
            if exchange.method == .post || exchange.method == .put || exchange.method == .patch {
                exchange.closeAfter = true
            }
            dispatch(id, exchange, outcome: .complete)
        }
        return id
    }

    /// A piece of the body has arrived (`bytes` lives only during the callback).
    /// - Returns: `false` when the connection must close at once (broken chunked framing).
    func receive(_ id: UInt64, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let exchange = exchanges[id] else { return true }
        if exchange.feed != nil { return receiveStreamed(exchange, bytes) }
        guard exchange.phase == .receiving else { return true }
        let limit = responder.configuration.maximumBodyBytes
        if responder.configuration.bodyReadTimeoutMilliseconds != nil { armBodyTimer(exchange) }
        if exchange.dechunker != nil {
            // lws reads a chunked body as one of unknown length: the connection cannot be kept.
            exchange.closeAfter = true
            let progress = exchange.dechunker!.feed(bytes)
            if progress == .malformed { return false }
            if exchange.dechunker!.body.count > limit {
                courier_lws_cancel_timer(exchange.wsi)
                dispatch(id, exchange, outcome: .tooLarge)
            } else if progress == .complete {
                exchange.body = exchange.dechunker!.body
                courier_lws_cancel_timer(exchange.wsi)
                dispatch(id, exchange, outcome: .complete)
            }
            return true
        }
        if exchange.body.count + bytes.count > limit {
            exchange.closeAfter = true
            courier_lws_cancel_timer(exchange.wsi)
            dispatch(id, exchange, outcome: .tooLarge)
            return true
        }
        if exchange.body.isEmpty, let declared = exchange.declaredLength {
            exchange.body.reserveCapacity(Self.bodyReservation(declared: declared, firstPiece: bytes.count))
        }
        exchange.body.append(contentsOf: bytes)
        return true
    }

    /// The room a body gets with its first piece, rather than regrowing as the next arrive: the
    /// declared length, but never more than four times what has come nor 64 KB, so a length a
    /// client only claims (and one byte sent on each of many connections) costs little.
    static func bodyReservation(declared: Int64, firstPiece: Int) -> Int {
        Int(min(declared, Int64(max(firstPiece, 1)) * 4, 64 << 10))
    }

    /// A piece of a streamed body: handed to the handler's feed, within the size limit.
    private func receiveStreamed(_ exchange: LibWebSocketsExchange, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let feed = exchange.feed else { return true }
        let piece: [UInt8]
        var complete = false
        if exchange.dechunker != nil {
            // lws reads a chunked body as one of unknown length: the connection cannot be kept.
            exchange.closeAfter = true
            let progress = exchange.dechunker!.feed(bytes)
            if progress == .malformed {
                endFeed(exchange, HTTPError(.badRequest, "the chunked body is malformed"))
                return false
            }
            piece = exchange.dechunker!.takeBody()
            complete = progress == .complete
        } else {
            piece = Array(bytes)
        }
        exchange.received += piece.count
        let limit = responder.configuration.maximumBodyBytes
        if exchange.received > limit {
            endFeed(exchange, HTTPError(.payloadTooLarge, "request body exceeds \(limit) bytes"))
            return true
        }
        feed.append(piece)
        if complete {
            endFeed(exchange, nil)
        } else {
            armBodyTimer(exchange)
        }
        return true
    }

    /// Ends a streamed body, whole (`failure` nil) or not; an unfinished one closes the
    /// connection after the answer.
    private func endFeed(_ exchange: LibWebSocketsExchange, _ failure: HTTPError?) {
        guard let feed = exchange.feed else { return }
        exchange.feed = nil
        courier_lws_cancel_timer(exchange.wsi)
        if failure != nil { exchange.closeAfter = true }
        feed.end(failure)
    }

    /// Sets the body timer: at the whole body's deadline, or sooner for the next piece when
    /// `bodyReadTimeoutMilliseconds` is set.
    private func armBodyTimer(_ exchange: LibWebSocketsExchange) {
        let now = DispatchTime.now().uptimeNanoseconds
        var due = exchange.bodyDeadline
        if let perRead = responder.configuration.bodyReadTimeoutMilliseconds {
            due = min(due, now &+ UInt64(max(1, perRead)) * 1_000_000)
        }
        let microseconds = due > now ? Int64((due - now) / 1000) : 0
        lws_set_timer_usecs(exchange.wsi, max(1, microseconds))
    }

    /// The whole body has arrived.
    func bodyComplete(_ id: UInt64) {
        guard let exchange = exchanges[id] else { return }
        if exchange.feed != nil, exchange.dechunker == nil { return endFeed(exchange, nil) }
        guard exchange.phase == .receiving else { return }
        courier_lws_cancel_timer(exchange.wsi)
        dispatch(id, exchange, outcome: .complete)
    }

    /// A body deadline (the whole body's, or the next piece's) has passed.
    func deadlinePassed(_ id: UInt64) {
        guard let exchange = exchanges[id] else { return }
        if exchange.feed != nil {
            return endFeed(exchange, HTTPError(.requestTimeout, "the request body did not arrive in time"))
        }
        guard exchange.phase == .receiving else { return }
        exchange.closeAfter = true
        dispatch(id, exchange, outcome: .incomplete)
    }

    /// The loop was woken: takes the handlers' responses and asks for a writable callback on
    /// each connection still open; breaks the loop when a stop was asked for.
    func wake() {
        // `.onLoop` handlers resumed on other threads since the last turn: what they answer now
        // joins the mailbox taken below.
        loopExecutor.run()
        let (responses, streamsReady, stopping, stopDeadline) = mailbox.state.withLock { box in
            let taken = (box.responses, box.streamsReady)
            box.responses = []
            box.streamsReady = []
            box.wakePending = false
            return (taken.0, taken.1, box.stopRequested, box.stopDeadline)
        }
        for (id, response) in responses { answer(id, response) }
        for id in streamsReady {
            guard let exchange = exchanges[id] else { continue }
            lws_callback_on_writable(exchange.wsi)
        }
        sockets.wake(writable: &writableNow)
        // At least every 100 ms: the engine's ticker wakes the loop that often.
        let now = DispatchTime.now().uptimeNanoseconds
        if now &- lastSocketTick >= 100_000_000 {
            lastSocketTick = now
            sockets.tick()
            endAbandonedStreams()
        }
        if stopping {
            sockets.closeAll()
            if sockets.count == 0 || now >= stopDeadline {
                courier_ev_break_all(loop)
            }
        }
    }

    /// Prepares a handler's answer and asks to write it once the connection is writable; with
    /// `inCallback`, a whole answer is left for `writeIfAnswered` to write before the callback
    /// that started the handler returns.
    private func answer(_ id: UInt64, _ response: HTTPResponse, inCallback: Bool = false) {
        guard let exchange = exchanges[id] else { return }
        if responder.lifecycle.isDraining || exchange.framingProblem != nil
            || exchange.feed != nil
        {
            // (A streamed body the handler did not read to its end is still on the socket.)
            exchange.closeAfter = true
        }
        exchange.prepare(response)
        if inCallback && response.bodyStream == nil {
            exchange.writesInCallback = true
            return
        }
        if let stream = response.bodyStream, exchange.method != .head { startProducing(id, exchange, stream) }
        // Written before the loop waits (`serviceWritable`), not on a writable callback a turn
        // later: a connection waiting for its answer has nothing held back, so it is writable.
        writableNow.append(exchange.wsi)
    }

    /// In the callback that started an `.onLoop` handler: writes its answer now when it has
    /// answered in that turn, as lws's own `lws_return_http_status` does, instead of waiting for
    /// a writable callback (which costs two `epoll_ctl`s and a loop turn). lws keeps what the
    /// kernel does not take at once and sends it before anything else on this connection.
    /// - Returns: what the callback returns, or `nil` when there is nothing to write yet.
    func writeIfAnswered(_ id: UInt64, session: UnsafeMutableRawPointer?) -> Int32? {
        guard let exchange = exchanges[id], exchange.writesInCallback else { return nil }
        exchange.writesInCallback = false
        return write(id, session: session)
    }

    /// Ends the streamed answers whose client has gone (on the tick, so within about 100 ms). A
    /// failed write would notice too, but only on the second write after the peer's FIN (the
    /// kernel accepts the first), which for a quiet event stream can be many seconds away: its
    /// producer, and whatever the application counts against it, would be held until then.
    private func endAbandonedStreams() {
        let gone = exchanges.entries.filter {
            $0.value.pipe != nil && courier_peer_gone(lws_get_socket_fd($0.value.wsi)) != 0
        }
        for (id, exchange) in gone {
            // The connection closes at lws's next timeout check; what the application holds for
            // the stream is freed now (its close callback then finds nothing left to finish).
            lws_set_timeout(exchange.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
            finish(id)
        }
    }

    /// Starts the task that pulls a streamed answer's chunks into its pipe.
    private func startProducing(_ id: UInt64, _ exchange: LibWebSocketsExchange, _ stream: HTTPResponseBodyStream) {
        let pipe = ResponseBodyPipe { [self] in streamReady(id) }
        exchange.pipe = pipe
        exchange.producer = Task(executorPreference: executor) {
            do {
                try await stream.forEach { await pipe.push($0) }
                pipe.finish(failed: false)
            } catch {
                pipe.finish(failed: true)
            }
        }
    }

    /// The connection may be written: sends the whole answer in one `lws_write`, or for a
    /// streamed answer its head or its next chunk (one `lws_write` per writable callback).
    /// `session` (the per-session data holding the id) is cleared before the transaction is
    /// completed, which frees it.
    /// - Returns: what the callback returns (-1 closes the connection).
    func write(_ id: UInt64, session: UnsafeMutableRawPointer?) -> Int32 {
        guard let exchange = exchanges[id] else { return 0 }
        if let pipe = exchange.pipe {
            if exchange.outgoing != nil {
                if exchange.send() < 0 { return -1 }
                lws_callback_on_writable(exchange.wsi)
                return 0
            }
            switch pipe.take() {
            case .chunk(let bytes):
                if exchange.send(chunk: bytes) < 0 { return -1 }
                lws_callback_on_writable(exchange.wsi)
                return 0
            case .wait:
                return 0
            case .failed:
                // The head has gone out; the only way left to say the body is cut is to close.
                session?.storeBytes(of: 0, as: UInt64.self)
                finish(id)
                return -1
            case .end:
                session?.storeBytes(of: 0, as: UInt64.self)
                finish(id)
                if !exchange.sendEnd() || exchange.closeAfter { return -1 }
                return completeTransaction(exchange.wsi)
            }
        }
        guard exchange.outgoing != nil else { return 0 }
        session?.storeBytes(of: 0, as: UInt64.self)
        finish(id)
        let written = exchange.send()
        if written < 0 || exchange.closeAfter { return -1 }
        return completeTransaction(exchange.wsi)
    }

    /// Ends a keep-alive transaction whose answer has been written. lws 4.1 then parks the
    /// connection until the kernel reports it writable, and only after that reads its next
    /// request; on the libev loop that is an `epoll_ctl` to watch for writability and another to
    /// stop, and a loop turn, per request. When lws holds nothing back of the answer, the
    /// connection is writable now: it is told so before the loop waits (`serviceWritable`), so
    /// both changes fall in one turn and libev makes neither.
    /// - Returns: what the callback returns (-1 closes the connection).
    private func completeTransaction(_ wsi: OpaquePointer) -> Int32 {
        let heldBack = lws_partial_buffered(wsi) != 0
        guard lws_http_transaction_completed(wsi) == 0 else { return -1 }
        if !heldBack { writableNow.append(wsi) }
        return 0
    }

    /// Connections to service as writable before the loop next waits: answers to write, and
    /// keep-alive connections lws parked with their whole answer taken by the kernel. A
    /// connection lws destroys is blanked out (`nil`), so a pass never touches it.
    private var writableNow: [OpaquePointer?] = []

    /// Before the loop waits (libev's prepare watcher, on the service thread): services each
    /// connection in `writableNow` as lws would on the kernel's word that it is writable (which
    /// a writable callback would wait a turn and two `epoll_ctl` calls for). What that writes
    /// may add more; they are serviced in the same pass, in order, by index (a broadcast can list
    /// every socket).
    func serviceWritable(context: OpaquePointer) {
        guard !writableNow.isEmpty else { return }
        var index = 0
        while index < writableNow.count {
            // Read afresh each time: servicing one may destroy another, which blanks its entry.
            if let wsi = writableNow[index] { _ = courier_lws_service_writable(context, wsi) }
            index += 1
        }
        writableNow.removeAll(keepingCapacity: true)
        // lws reads a request it has already buffered (the next of a pipelined series) only in a
        // pass it schedules after a descriptor event, and servicing a connection here is none: a
        // wake-up lets it run that pass now rather than at the next tick (100 ms).
        if lws_service_adjust_timeout(context, 1, 0) == 0 { lws_cancel_service(context) }
    }

    /// The connection closed, or the transaction's state is going: whatever its handler answers
    /// later is dropped, and its `wsi` is never touched again.
    func finish(_ id: UInt64) {
        guard let exchange = exchanges.remove(id) else { return }
        if let feed = exchange.feed {
            exchange.feed = nil
            feed.end(HTTPError(.badRequest, "the connection closed before the body was whole"))
        }
        if let pipe = exchange.pipe {
            pipe.close()
            exchange.producer?.cancel()
        }
        responder.lifecycle.leave()
    }

    private func dispatch(_ id: UInt64, _ exchange: LibWebSocketsExchange, outcome: LibWebSocketsExchange.Outcome) {
        exchange.phase = .handling
        // lws's own body timeout (whole seconds) stays armed while it still counts a body as
        // unfinished (chunked, or refused as too large): it must not cut a slow handler off.
        lws_set_timeout(exchange.wsi, NO_PENDING_TIMEOUT, 0)
        let started = exchange.started
        let match = exchange.match
        let responder = responder
        if outcome == .complete {
            // Nothing in its chain waits: answered in this callback, with no task (unless the
            // route's answer is not in memory). The reads from lws's header table end before
            // the answer is written.
            switch runOnLoop(id, exchange, match: match, started: started) {
            case .answered(let response):
                leaveLoop(exchange)
                return answer(id, response, inCallback: true)
            case .answersLater:
                return leaveLoop(exchange)
            case .notOnLoop:
                break
            }
        }
        let request = exchange.requestLeavingTheLoop()
        // The handler runs as a task on the server's handler executor: one that awaits holds no
        // thread, and the loop goes on serving other connections meanwhile.
        Task(executorPreference: executor) { [self] in
            let response: HTTPResponse
            switch outcome {
            case .incomplete: response = responder.refuseIncomplete(request, startedAt: started)
            case .tooLarge:
                response = await responder.respond(to: request, match: match, bodyTooLarge: true, startedAt: started)
            case .complete:
                response = await responder.respond(to: request, match: match, bodyTooLarge: false, startedAt: started)
            }
            deliver(id, response)
        }
    }

    /// Ends the reads from lws's header table of a request handled in this callback, counting a
    /// copy made for a request that outlives it.
    private func leaveLoop(_ exchange: LibWebSocketsExchange) {
        if exchange.leaveLoop() { responder.metrics.recordHeaderTableCopied() }
    }

    /// What running a request in the callback that dispatched it came to.
    private enum LoopOutcome {
        /// Answered: the answer is to be written now.
        case answered(HTTPResponse)
        /// Its handler suspended, and answers through the mailbox.
        case answersLater
        /// Not a request the loop answers: it runs as a task.
        case notOnLoop
    }

    /// Runs a request whose body is whole in this callback when its route allows: its
    /// synchronous chain, or an `.onLoop` route's task on this thread. A handler that does not
    /// suspend has answered when `run` returns; one that suspended answers through the mailbox,
    /// as a handler task does. The request made here is not held once this returns, unless a
    /// handler kept it.
    private func runOnLoop(
        _ id: UInt64, _ exchange: LibWebSocketsExchange, match: Router.Match, started: UInt64
    ) -> LoopOutcome {
        let request = exchange.request()
        if let response = responder.respondOnLoop(to: request, match: match, startedAt: started) {
            return .answered(response)
        }
        guard case .found(let route, _) = match, route.execution == .onLoop else { return .notOnLoop }
        let answer = LoopAnswer()
        let responder = responder
        loopExecutor.run {
            Task(executorPreference: loopExecutor) { [self] in
                let response = await responder.respond(
                    to: request, match: match, bodyTooLarge: false, startedAt: started)
                if let late = answer.settle(response) { deliver(id, late) }
            }
        }
        if let response = answer.take() { return .answered(response) }
        return .answersLater
    }
}
