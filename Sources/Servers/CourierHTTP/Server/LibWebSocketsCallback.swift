internal import CLibWebSockets

/// The one protocol callback of the engine's context: lws calls it on the service thread. The
/// per-session data (`user`) holds the exchange's id, 0 when none.
func libWebSocketsCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let owner = lws_context_user(lws_get_context(wsi)) else { return 0 }
    let service = Unmanaged<LibWebSocketsService>.fromOpaque(owner).takeUnretainedValue()
    // Read only for the reasons below, where `user` is this protocol's per-session data.
    var id: UInt64 { user?.load(as: UInt64.self) ?? 0 }
    switch reason {
    case LWS_CALLBACK_HTTP:
        service.declinedUpgrade.restore(wsi)
        guard let user,
            let exchange = LibWebSocketsExchange(
                wsi: wsi, remoteAddress: service.peerAddress(wsi), extraHeaderNames: service.extraHeaderNames)
        else {
            return -1
        }
        let started = service.begin(exchange)
        user.storeBytes(of: started, as: UInt64.self)
        return service.writeIfAnswered(started, session: user) ?? 0
    case LWS_CALLBACK_HTTP_BODY:
        // `input` is lws's buffer, valid only during this call: the service copies it.
        let receiving = id
        guard let input, receiving != 0 else { return 0 }
        guard service.receive(receiving, UnsafeRawBufferPointer(start: input, count: length)) else { return -1 }
        // A chunked body is whole in the piece that holds its last chunk: an `.onLoop` route has
        // answered it in this call.
        return service.writeIfAnswered(receiving, session: user) ?? 0
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        let completed = id
        guard completed != 0 else { return 0 }
        service.bodyComplete(completed)
        return service.writeIfAnswered(completed, session: user) ?? 0
    case LWS_CALLBACK_TIMER:
        if id != 0 { service.deadlinePassed(id) }
        return 0
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        // `input` is the `Upgrade` header's value in lws's table; 0 lets lws go on.
        if let input {
            service.declinedUpgrade.decline(wsi, value: input) { service.sockets.hasRoute($0) }
        }
        return 0
    case LWS_CALLBACK_CONFIRM_EXTENSION_OKAY:
        // Non-zero declines `permessage-deflate` for a route configured without compression.
        return service.sockets.allowsCompression(wsi) ? 0 : 1
    case LWS_CALLBACK_ESTABLISHED:
        guard let user, let socket = service.sockets.established(wsi, remoteAddress: service.peerAddress(wsi))
        else { return -1 }
        user.storeBytes(of: socket, as: UInt64.self)
        return 0
    case LWS_CALLBACK_RECEIVE:
        // `input` is lws's buffer, valid only during this call.
        guard LibWebSocketsSockets.isSocket(id) else { return 0 }
        return service.sockets.receive(id, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
    case LWS_CALLBACK_RECEIVE_PONG:
        if LibWebSocketsSockets.isSocket(id) { service.sockets.pong(id) }
        return 0
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return LibWebSocketsSockets.isSocket(id) ? service.sockets.writable(id) : 0
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if LibWebSocketsSockets.isSocket(id) {
            service.sockets.peerClosing(id, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
        }
        return 0
    case LWS_CALLBACK_CLOSED:
        let closing = id
        if LibWebSocketsSockets.isSocket(closing) {
            user?.storeBytes(of: 0, as: UInt64.self)
            service.sockets.closed(closing)
        }
        return 0
    case LWS_CALLBACK_HTTP_WRITEABLE:
        let answered = id
        guard answered != 0 else { return 0 }
        // The service clears `user` before it completes the transaction, which frees this
        // per-session data (lws binds the protocol afresh for the next request on the connection).
        return service.write(answered, session: user)
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        // `wsi` is the listening socket here; non-zero makes lws close the new one unread.
        return service.admitsConnection() ? 0 : -1
    case LWS_CALLBACK_WSI_CREATE:
        service.connectionOpened()
        return 0
    case LWS_CALLBACK_WSI_DESTROY:
        service.connectionClosed(wsi)
        return 0
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        service.wake()
        return 0
    case LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        let closing = id
        if LibWebSocketsSockets.isSocket(closing) {
            user?.storeBytes(of: 0, as: UInt64.self)
            service.sockets.closed(closing)
        } else if closing != 0 {
            user?.storeBytes(of: 0, as: UInt64.self)
            service.finish(closing)
        }
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}
