package import CLibWebSockets

/// Writes one connection's WebSocket frames (server or client side), each with its `LWS_PRE`
/// headroom in one `lws_write`, and keeps the last write's buffer: permessage-deflate compresses
/// a large message over several writable events with zlib still reading that buffer, so it lives
/// until the next write or the connection's end. Used on the loop's thread only.
package final class LibWebSocketsFrameWriter {
    private var lastWrite: UnsafeMutableRawBufferPointer?

    /// A writer with nothing written yet.
    package init() {}

    deinit { lastWrite?.deallocate() }

    /// Writes `payload` as one frame of `kind`.
    /// - Returns: `false` when lws could not write (the connection is to close).
    package func write(_ payload: some Collection<UInt8>, as kind: lws_write_protocol, on wsi: OpaquePointer) -> Bool {
        lastWrite?.deallocate()
        let headroom = courier_lws_pre()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: headroom + max(1, payload.count), alignment: 16)
        lastWrite = buffer
        let count = payload.count
        UnsafeMutableRawBufferPointer(rebasing: buffer[headroom...]).copyBytes(from: payload)
        let start = buffer.baseAddress!.advanced(by: headroom).assumingMemoryBound(to: UInt8.self)
        return lws_write(wsi, start, count, kind) >= 0
    }

    /// Sets the close frame lws sends when the callback then returns -1.
    package static func setClose(_ close: WebSocketClose, on wsi: OpaquePointer) {
        var reason = Array(close.payload.dropFirst(2))
        lws_close_reason(wsi, lws_close_status(UInt32(close.code.rawValue)), &reason, reason.count)
    }
}
