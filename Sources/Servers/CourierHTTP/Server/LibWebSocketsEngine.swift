internal import CLibWebSockets
import CourierCore
import Foundation

/// Owns one libwebsockets context on a libev loop of its own and the thread that runs the loop.
///
/// lws calls `libWebSocketsCallback` on that thread only; handlers run as tasks on Swift's shared
/// pool and hand their responses back through `LibWebSocketsService.deliver`, which wakes the
/// loop with `lws_cancel_service`, the one lws call that is safe from another thread.
final class LibWebSocketsEngine: HTTPEngine, @unchecked Sendable {
    /// The only ALPN protocol the vhosts offer; never freed (lws keeps the pointer).
    nonisolated(unsafe) private static let http1ALPN = UnsafePointer(strdup("http/1.1"))
    /// The vhosts' retry and idle policy: no lws validity checks (never freed; lws keeps the
    /// pointer). The service pings and closes idle WebSockets itself, in one pass per tick
    /// (`LibWebSocketsSockets.tick`). lws's default (a ping after 300 s, a hangup at 310 s) gave
    /// every connection a timer in the loop's one sorted list, moved on each pong with a walk of
    /// the whole list: with 19,000 sockets held and pinged, the loop spent 87 % of its time there.
    nonisolated(unsafe) static let noValidityChecks: UnsafePointer<lws_retry_bo_t> = {
        let policy = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
        policy.initialize(to: lws_retry_bo_t())
        return UnsafePointer(policy)
    }()
    // @unchecked: every stored property is written once in init. After init the C pointers are
    // used by the service thread only, until `stop()` (which `HTTPServer` calls at most once,
    // having taken the engine out of its mutex) has joined that thread and frees them.
    let port: Int
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let service: Unmanaged<LibWebSocketsService>
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private let protocolName: UnsafeMutablePointer<CChar>
    /// Signalled when the service thread has destroyed the context.
    private let finished = CompletionEvent<Void>()
    /// The executor this engine created and stops (none in a group: the group's is shared).
    private let ownExecutor: HandlerExecutor?
    /// The group's listening socket this loop accepts on, if any.
    private let listener: LibWebSocketsListener?

    /// Starts one context on its own loop and thread.
    /// - Parameters:
    ///   - listener: a listening socket of a group (`SO_REUSEPORT`) and its port: the loop
    ///     accepts on it and hands connections to lws; `nil`: lws listens on the configured port.
    ///   - maximumConnections: this context's share of the configuration's limit.
    ///   - executor: the group's handler executor; `nil`: one of its own, stopped with the engine.
    init(
        configuration: HTTPServerConfiguration, responder: Responder, listener: (fd: Int32, port: Int)? = nil,
        maximumConnections: Int? = nil, executor: HandlerExecutor? = nil
    ) throws {
        let ownExecutor =
            executor == nil
            ? HandlerExecutor(count: configuration.handlerThreads, name: "http-handler") : nil
        var started = false
        defer { if !started { ownExecutor?.stop() } }
        lws_set_log_level(LLL_ERR, nil)
        guard let loop = courier_ev_loop_new() else { throw HTTPServerError("cannot create an event loop") }
        let service = Unmanaged.passRetained(
            LibWebSocketsService(
                responder: responder, loop: loop,
                maximumConnections: maximumConnections ?? configuration.maximumConnections,
                executor: executor ?? ownExecutor!))
        let protocolName = strdup("courier-http")!
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(protocolName)
        protocols[0].callback = libWebSocketsCallback
        protocols[0].per_session_data_size = MemoryLayout<UInt64>.size

        var info = lws_context_creation_info()
        // TLS is turned on for the vhost only: OpenSSL is set up once for the process.
        let tlsOptions = configuration.tls == nil ? 0 : courier_lws_tls_options()
        if configuration.tls != nil { LibWebSocketsTLSLibrary.ensureInitialised() }
        info.options = courier_lws_server_options()
        info.user = service.toOpaque()
        // Whole seconds: how long a client may take over its headers (the body has its own
        // deadline, in milliseconds, in the service).
        info.timeout_secs = UInt32(max(1, (configuration.requestTimeoutMilliseconds + 999) / 1000))
        info.max_http_header_data = UInt16(clamping: max(1024, configuration.maximumHeaderBytes))
        var foreignLoops: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(loop)]
        let created = foreignLoops.withUnsafeMutableBufferPointer { buffer in
            info.foreign_loops = buffer.baseAddress
            return lws_create_context(&info)
        }
        guard let context = created else {
            Self.free(loop: loop, service: service, protocols: protocols, name: protocolName)
            throw HTTPServerError("cannot create a libwebsockets context (is the libev plugin installed?)")
        }
        var vhostInfo = lws_context_creation_info()
        vhostInfo.options = courier_lws_server_options() | tlsOptions
        vhostInfo.port = listener == nil ? Int32(configuration.port) : courier_lws_no_listen_server()
        vhostInfo.protocols = UnsafePointer(protocols)
        vhostInfo.extensions = courier_lws_server_extensions()
        vhostInfo.keepalive_timeout = Int32(max(1, (configuration.keepAliveTimeoutMilliseconds + 999) / 1000))
        let host = configuration.host == "0.0.0.0" ? nil : strdup(configuration.host)
        defer { Foundation.free(host) }
        vhostInfo.iface = UnsafePointer(host)
        // lws reads the files while it creates the vhost.
        let certificate = configuration.tls.map { strdup($0.certificateChainPath) }
        let key = configuration.tls.map { strdup($0.privateKeyPath) }
        defer {
            Foundation.free(certificate ?? nil)
            Foundation.free(key ?? nil)
        }
        // lws advertises `h2,http/1.1` by default, but the engine answers HTTP/1.1 only: a client
        // that chose h2 in ALPN got no answer. lws keeps the pointer, hence a string that lives on.
        vhostInfo.alpn = Self.http1ALPN
        vhostInfo.retry_and_idle_policy = Self.noValidityChecks
        vhostInfo.ssl_cert_filepath = UnsafePointer(certificate ?? nil)
        vhostInfo.ssl_private_key_filepath = UnsafePointer(key ?? nil)
        guard let vhost = lws_create_vhost(context, &vhostInfo) else {
            lws_context_destroy(context)
            Self.free(loop: loop, service: service, protocols: protocols, name: protocolName)
            throw HTTPServerError(
                configuration.tls == nil
                    ? "cannot listen on \(configuration.host):\(configuration.port) (address in use or not available)"
                    : "cannot listen on \(configuration.host):\(configuration.port) with TLS (address in use, or the "
                        + "certificate or key cannot be read)")
        }
        port = listener?.port ?? Int(lws_get_vhost_listen_port(vhost))
        self.ownExecutor = ownExecutor
        started = true
        self.listener = listener.map { LibWebSocketsListener(fd: $0.fd, vhost: vhost, service: service) }
        self.context = context
        self.loop = loop
        self.service = service
        self.protocols = protocols
        self.protocolName = protocolName
        service.takeUnretainedValue().attach(context: context)

        NamedThread.start("http-loop") { [self] in runLoop() }
    }

    /// Connections this context has created, its listening socket included (any thread).
    var acceptedConnections: Int { service.takeUnretainedValue().accepted.load(ordering: .relaxed) }

    /// Answers what is in flight (new requests get 503), then breaks the loop, destroys the
    /// context (closing every connection) and joins the service thread, blocking the caller.
    /// - Returns: requests still unanswered when `deadline` passed.
    func stop(deadline: Duration) -> Int {
        let started = DispatchTime.now().uptimeNanoseconds
        let left = service.takeUnretainedValue().responder.lifecycle.drain(quiet: Self.quiet, deadline: deadline)
        closeAfterDrain(started: started, deadline: deadline)
        finished.wait()
        release()
        return left
    }

    /// Does what `stop(deadline:)` does, suspending instead of blocking: the drain and the
    /// service thread's end are awaited.
    /// - Returns: requests still unanswered when `deadline` passed.
    func shutdown(deadline: Duration) async -> Int {
        let started = DispatchTime.now().uptimeNanoseconds
        let left = await service.takeUnretainedValue().responder.lifecycle.drain(quiet: Self.quiet, deadline: deadline)
        closeAfterDrain(started: started, deadline: deadline)
        await finished.value
        release()
        return left
    }

    /// How long no request must arrive before a drain ends (clients told 503 have gone).
    private static let quiet = Duration.milliseconds(100)

    /// Asks the loop to close its WebSockets with 1001 within what is left of the deadline (at
    /// least a moment, so a zero deadline still sends the close frames), then to stop.
    private func closeAfterDrain(started: UInt64, deadline: Duration) {
        let total = UInt64(max(0, deadline.wholeNanoseconds))
        service.takeUnretainedValue().requestStop(
            deadline: max(started &+ total, DispatchTime.now().uptimeNanoseconds + 50_000_000))
    }

    /// Frees what the stopped loop used.
    private func release() {
        ownExecutor?.stop()
        Self.free(loop: loop, service: service, protocols: protocols, name: protocolName)
    }

    private func runLoop() {
        // Debian's lws 4.1.6 libev plugin re-arms its timer with `ev_timer_set` on a running
        // timer, which libev ignores: a timeout set while a later one is pending (a body deadline,
        // a header or keep-alive timeout) would wait for that later one. lws services due timers
        // after every wake-up, so waking the loop ten times a second keeps them within 100 ms.
        let ticker = UnsafeMutablePointer<ev_timer>.allocate(capacity: 1)
        ticker.initialize(to: ev_timer())
        courier_ev_timer_start(loop, ticker, libWebSocketsTick, 0.1, UnsafeMutableRawPointer(context))
        let prepare = UnsafeMutablePointer<ev_prepare>.allocate(capacity: 1)
        prepare.initialize(to: ev_prepare())
        courier_ev_prepare_start(loop, prepare, libWebSocketsPrepare, UnsafeMutableRawPointer(context))
        listener?.start(on: loop)
        courier_ev_run(loop)
        listener?.stop(on: loop)
        courier_ev_prepare_stop(loop, prepare)
        prepare.deallocate()
        courier_ev_timer_stop(loop, ticker)
        ticker.deallocate()
        // The loop has stopped: no handler may wake a context that is about to go.
        service.takeUnretainedValue().detach()
        lws_context_destroy(context)
        finished.signal(())
    }

    private static func free(
        loop: OpaquePointer, service: Unmanaged<LibWebSocketsService>,
        protocols: UnsafeMutablePointer<lws_protocols>, name: UnsafeMutablePointer<CChar>
    ) {
        courier_ev_loop_destroy(loop)
        service.release()
        protocols.deinitialize(count: 2)
        protocols.deallocate()
        Foundation.free(name)
    }
}

/// The prepare watcher's callback, on the service thread before the loop waits: connections with
/// an answer to write or parked by lws are serviced as writable (`LibWebSocketsService.serviceWritable`).
private func libWebSocketsPrepare(
    _ loop: OpaquePointer?, _ watcher: UnsafeMutablePointer<ev_prepare>?, _ events: Int32
) {
    guard let data = watcher?.pointee.data, let owner = lws_context_user(OpaquePointer(data)) else { return }
    Unmanaged<LibWebSocketsService>.fromOpaque(owner).takeUnretainedValue().serviceWritable(
        context: OpaquePointer(data))
}

/// The ticker's callback, on the service thread: wakes lws (see `runLoop`).
private func libWebSocketsTick(_ loop: OpaquePointer?, _ timer: UnsafeMutablePointer<ev_timer>?, _ events: Int32) {
    guard let context = timer?.pointee.data else { return }
    lws_cancel_service(OpaquePointer(context))
}
