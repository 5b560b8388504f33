#if !canImport(Darwin)
    internal import CLibWebSockets
    import CourierCore
    import Foundation
    import Synchronization

    /// Owns a client's libwebsockets context (no listener, libev as a foreign loop) and the thread
    /// that runs the loop.
    package final class LibWebSocketsClientLoop: Sendable {
        /// The name of the one protocol the context registers (never sent to servers).
        static let protocolName = "courier-ws-client"

        let service: LibWebSocketsClientService
        private let resources: Resources
        private let finished = DispatchSemaphore(value: 0)
        /// Whether `stop()` has run.
        private let stopped = Mutex(false)

        /// The C memory the context points into, freed once the loop thread has destroyed it.
        private struct Resources: @unchecked Sendable {
            // @unchecked: written once in init, read by the loop thread (which starts after init)
            // and freed by `stop()` only after that thread has signalled `finished`.
            let context: OpaquePointer
            let loop: OpaquePointer
            let retainedService: Unmanaged<LibWebSocketsClientService>
            let protocols: UnsafeMutablePointer<lws_protocols>
            let name: UnsafeMutablePointer<CChar>

            func free() {
                courier_ev_loop_destroy(loop)
                retainedService.release()
                protocols.deinitialize(count: 2)
                protocols.deallocate()
                Foundation.free(name)
            }
        }

        /// Creates the context and starts its thread.
        /// - Throws: `WebSocketError` `connectFailed` when the trusted-CA file cannot be read or
        ///   lws cannot create the context.
        init(configuration: WebSocketClientConfiguration) throws(WebSocketError) {
            if let path = configuration.additionalTrustedCertificatesPath,
                !FileManager.default.isReadableFile(atPath: path)
            {
                throw WebSocketError(.connectFailed, "cannot read the trusted certificates at \(path)")
            }
            lws_set_log_level(LLL_ERR, nil)
            guard let loop = courier_ev_loop_new() else {
                throw WebSocketError(.connectFailed, "cannot create an event loop")
            }
            let service = LibWebSocketsClientService(loop: loop, configuration: configuration)
            let retained = Unmanaged.passRetained(service)
            let name = strdup(Self.protocolName)!
            let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
            protocols.initialize(repeating: lws_protocols(), count: 2)
            protocols[0].name = UnsafePointer(name)
            protocols[0].callback = libWebSocketsClientCallback
            protocols[0].rx_buffer_size = 65_536

            // OpenSSL is set up once for the process (LibWebSocketsTLSLibrary); the context does
            // not ask for it again, and its one vhost turns TLS on for itself.
            LibWebSocketsTLSLibrary.ensureInitialised()
            var info = lws_context_creation_info()
            info.options = courier_lws_client_context_options()
            info.port = courier_lws_client_no_listen_port()
            info.user = retained.toOpaque()
            // The handshake is written into one buffer of this size: room for long headers.
            info.pt_serv_buf_size = 16_384
            // lws's own limit on each network round trip of the handshake; the client's connect
            // timeout (checked by the service) is meant to end it first.
            info.timeout_secs = 300
            var foreignLoops: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(loop)]
            let created = foreignLoops.withUnsafeMutableBufferPointer { buffer in
                info.foreign_loops = buffer.baseAddress
                return lws_create_context(&info)
            }
            var vhostInfo = lws_context_creation_info()
            vhostInfo.options = courier_lws_client_options()
            vhostInfo.port = courier_lws_client_no_listen_port()
            vhostInfo.protocols = UnsafePointer(protocols)
            vhostInfo.extensions = courier_lws_client_extensions()
            let caPath = configuration.additionalTrustedCertificatesPath.map { strdup($0) }
            defer { Foundation.free(caPath ?? nil) }
            vhostInfo.client_ssl_ca_filepath = caPath.flatMap { UnsafePointer($0) }
            if let context = created, lws_create_vhost(context, &vhostInfo) == nil {
                lws_context_destroy(context)
                courier_ev_loop_destroy(loop)
                retained.release()
                protocols.deinitialize(count: 2)
                protocols.deallocate()
                Foundation.free(name)
                throw WebSocketError(.connectFailed, "cannot create the libwebsockets client's vhost")
            }
            guard let context = created else {
                courier_ev_loop_destroy(loop)
                retained.release()
                protocols.deinitialize(count: 2)
                protocols.deallocate()
                Foundation.free(name)
                throw WebSocketError(
                    .connectFailed, "cannot create a libwebsockets client context (is the libev plugin installed?)")
            }
            resources = Resources(
                context: context, loop: loop, retainedService: retained, protocols: protocols, name: name)
            self.service = service
            service.attach(context: context)
            NamedThread.start("ws-client") { [resources, finished] in Self.run(resources, finished: finished) }
        }

        /// Closes every socket (1001), waits up to the shutdown grace for their close handshakes,
        /// destroys the context and joins the thread. Later calls return at once.
        func stop() {
            let first = stopped.withLock { stopped in
                defer { stopped = true }
                return !stopped
            }
            guard first else { return }
            service.requestStop()
            finished.wait()
            resources.free()
        }

        private static func run(_ resources: Resources, finished: DispatchSemaphore) {
            // Debian's lws 4.1.6 libev plugin does not re-arm its timer reliably (docs/http-engine.md):
            // the loop is woken ten times a second, which also drives the service's periodic checks.
            let ticker = UnsafeMutablePointer<ev_timer>.allocate(capacity: 1)
            ticker.initialize(to: ev_timer())
            courier_ev_timer_start(
                resources.loop, ticker, libWebSocketsClientTick, 0.1, resources.retainedService.toOpaque())
            courier_ev_run(resources.loop)
            courier_ev_timer_stop(resources.loop, ticker)
            ticker.deallocate()
            let service = resources.retainedService.takeUnretainedValue()
            service.detach()
            lws_context_destroy(resources.context)
            service.finishAll()
            finished.signal()
        }
    }

    /// The ticker's callback, on the loop thread.
    private func libWebSocketsClientTick(
        _ loop: OpaquePointer?, _ timer: UnsafeMutablePointer<ev_timer>?, _ events: Int32
    ) {
        guard let service = timer?.pointee.data else { return }
        Unmanaged<LibWebSocketsClientService>.fromOpaque(service).takeUnretainedValue().tick()
    }
#endif
