internal import CLibWebSockets

/// A listening socket of an engine group (`SO_REUSEPORT`, made in the shim) that one loop
/// accepts on, handing each connection to its lws vhost (`lws_adopt_socket_vhost`): lws 4.1 sets
/// `SO_REUSEPORT` only for a context with several service threads, which Debian's build
/// (`LWS_MAX_SMP=1`) never has.
///
/// Used on the loop's thread only (from `runLoop` and libev's callback); owns `fd` and closes it
/// when the loop stops.
final class LibWebSocketsListener {
    let fd: Int32
    private let vhost: OpaquePointer
    private let service: Unmanaged<LibWebSocketsService>
    private let watcher = UnsafeMutablePointer<ev_io>.allocate(capacity: 1)

    init(fd: Int32, vhost: OpaquePointer, service: Unmanaged<LibWebSocketsService>) {
        self.fd = fd
        self.vhost = vhost
        self.service = service
        watcher.initialize(to: ev_io())
    }

    deinit {
        watcher.deinitialize(count: 1)
        watcher.deallocate()
    }

    /// Starts accepting when the socket is readable.
    func start(on loop: OpaquePointer) {
        courier_ev_io_start(loop, watcher, libWebSocketsAccept, fd, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops accepting and closes the socket (connections already adopted stay lws's).
    func stop(on loop: OpaquePointer) {
        courier_ev_io_stop(loop, watcher)
        courier_close(fd)
    }

    /// Takes every pending connection: adopted, or closed unread past `maximumConnections` (as
    /// lws's own listener does through `LWS_CALLBACK_FILTER_NETWORK_CONNECTION`).
    fileprivate func acceptPending() {
        let service = service.takeUnretainedValue()
        while true {
            let connection = courier_accept(fd)
            guard connection >= 0 else { return }
            if !service.admitsConnection() || lws_adopt_socket_vhost(vhost, connection) == nil {
                courier_close(connection)
            }
        }
    }
}

/// libev's callback for a listening socket: on the loop's thread.
private func libWebSocketsAccept(_ loop: OpaquePointer?, _ watcher: UnsafeMutablePointer<ev_io>?, _ events: Int32) {
    guard let data = watcher?.pointee.data else { return }
    Unmanaged<LibWebSocketsListener>.fromOpaque(data).takeUnretainedValue().acceptPending()
}
