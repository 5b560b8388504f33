#if !canImport(Darwin)
    internal import CLibWebSockets

    /// The one protocol callback of a client context, on its loop thread. Each connection carries
    /// its id as lws's opaque user data (set at connect time, there from the first callback).
    func libWebSocketsClientCallback(
        _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        guard let wsi, let owner = lws_context_user(lws_get_context(wsi)) else { return 0 }
        let service = Unmanaged<LibWebSocketsClientService>.fromOpaque(owner).takeUnretainedValue()
        var id: UInt64 { UInt64(UInt(bitPattern: lws_get_opaque_user_data(wsi))) }
        // `input` is lws's buffer, valid only during this call: the service copies what it keeps.
        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length) }
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            service.wake()
        case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
            guard let input else { return 0 }
            let cursor = input.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
            return service.appendHeaders(id, wsi, cursor, room: length) ? 0 : -1
        case LWS_CALLBACK_CLIENT_CONFIRM_EXTENSION_SUPPORTED:
            // Non-zero: do not offer it.
            return service.offersExtension(id) ? 0 : 1
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            service.established(id, wsi)
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            // A C string (its length is not always given right), or NULL.
            let message = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            var reason = message.isEmpty ? "unknown error" : message
            if let refused = courier_lws_client_tls_verify_error(wsi) {
                reason += " (server certificate: \(String(cString: refused)))"
            }
            let status = lws_http_client_http_response(wsi)
            if status != 0, status != 101 { reason += " (HTTP status \(status))" }
            service.connectFailed(id, reason)
        case LWS_CALLBACK_CLIENT_RECEIVE:
            return service.receive(id, wsi, bytes) ? 0 : -1
        case LWS_CALLBACK_CLIENT_RECEIVE_PONG:
            service.heard(id)
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            return service.writable(id)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            service.peerClosed(id, bytes)
        case LWS_CALLBACK_CLIENT_CLOSED, LWS_CALLBACK_WSI_DESTROY:
            service.closed(id)
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
        return 0
    }
#endif
