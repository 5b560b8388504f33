internal import CLibWebSockets
import Foundation

/// One open WebSocket on the libwebsockets engine: its `wsi`, the channel it shares with the
/// handler's task, and what only the loop thread touches (the message being reassembled, when the
/// peer was last heard, whether a ping is due).
final class LibWebSocketsSocket {
    let wsi: OpaquePointer
    let channel: WebSocketChannel
    var configuration: WebSocketConfiguration { channel.configuration }
    /// The fragments of the message being received.
    var assembling: [UInt8] = []
    var assemblingBinary = false
    /// When any frame (a pong too) last arrived, monotonic nanoseconds.
    var lastHeard: UInt64
    /// A ping has gone out since the peer was last heard.
    var pinged = false
    /// A ping waits for the next writable callback.
    var pingDue = false
    /// lws drops the connection if its close is not written within the grace (a peer that
    /// reads nothing never lets it be).
    var closeGraceArmed = false

    init(wsi: OpaquePointer, channel: WebSocketChannel, now: UInt64) {
        self.wsi = wsi
        self.channel = channel
        lastHeard = now
    }

    /// The buffer of the last `lws_write`: permessage-deflate compresses a large message over
    /// several writable events with zlib still reading this buffer, so it lives until the next
    /// write or the socket's end.
    private var lastWrite: UnsafeMutableRawBufferPointer?

    deinit { lastWrite?.deallocate() }

    /// Writes one message (or ping) with its `LWS_PRE` headroom in one `lws_write`.
    /// - Returns: `false` when the write failed (the connection is going).
    func write(_ payload: [UInt8], _ protocolKind: lws_write_protocol) -> Bool {
        lastWrite?.deallocate()
        let pre = courier_lws_pre()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pre + max(1, payload.count), alignment: 16)
        lastWrite = buffer
        UnsafeMutableRawBufferPointer(rebasing: buffer[pre...]).copyBytes(from: payload)
        let start = buffer.baseAddress!.advanced(by: pre).assumingMemoryBound(to: UInt8.self)
        return lws_write(wsi, start, payload.count, protocolKind) >= 0
    }

    /// Once a close waits in the channel's queue: lws drops the connection after `seconds` if the
    /// close cannot be written by then.
    func armCloseGrace(seconds: Int32 = 5) {
        guard !closeGraceArmed, channel.isClosing else { return }
        closeGraceArmed = true
        courier_lws_close_within(wsi, seconds)
    }

    /// Sets the close frame lws sends when the callback returns -1.
    func setClose(_ close: WebSocketClose) {
        var reason = Array(close.payload.dropFirst(2))
        reason.withUnsafeMutableBufferPointer { buffer in
            lws_close_reason(wsi, lws_close_status(UInt32(close.code.rawValue)), buffer.baseAddress, buffer.count)
        }
    }
}
