internal import CLibWebSockets

/// The one protocol callback of the engine's context: lws calls it on the service thread. The
/// per-session data (`user`) holds the exchange's id, 0 when none.
func libWebSocketsCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let owner = lws_context_user(lws_get_context(wsi)) else { return 0 }
    let service = Unmanaged<LibWebSocketsService>.fromOpaque(owner).takeUnretainedValue()
    let id = user?.load(as: UInt64.self) ?? 0
    switch reason {
    case LWS_CALLBACK_HTTP:
        guard let user, let exchange = LibWebSocketsExchange(wsi: wsi) else { return -1 }
        user.storeBytes(of: service.begin(exchange), as: UInt64.self)
        return 0
    case LWS_CALLBACK_HTTP_BODY:
        // `input` is lws's buffer, valid only during this call: the service copies it.
        if let input, id != 0 { service.receive(id, UnsafeRawBufferPointer(start: input, count: length)) }
        return 0
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        if id != 0 { service.bodyComplete(id) }
        return 0
    case LWS_CALLBACK_TIMER:
        if id != 0 { service.deadlinePassed(id) }
        return 0
    case LWS_CALLBACK_HTTP_WRITEABLE:
        guard id != 0, let result = service.write(id) else { return 0 }
        user?.storeBytes(of: 0, as: UInt64.self)
        return result
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        service.wake()
        return 0
    case LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        if id != 0 {
            user?.storeBytes(of: 0, as: UInt64.self)
            service.finish(id)
        }
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}
