internal import CLibWebSockets
import Foundation

/// One open WebSocket on the libwebsockets engine: its `wsi`, the channel it shares with the
/// handler's task, and what only the loop thread touches (the message being reassembled, when the
/// peer was last heard, whether a ping is due).
final class LibWebSocketsSocket {
    let wsi: OpaquePointer
    let channel: WebSocketChannel
    var configuration: WebSocketConfiguration { channel.configuration }
    /// The pieces of the message being received.
    var assembler: WebSocketMessageAssembler
    /// When any frame (a pong too) last arrived, monotonic nanoseconds.
    var lastHeard: UInt64
    /// A ping has gone out since the peer was last heard.
    var pinged = false
    /// A ping waits for the next writable callback.
    var pingDue = false
    /// lws drops the connection if its close is not written within the grace (a peer that
    /// reads nothing never lets it be).
    var closeGraceArmed = false
    private let writer = LibWebSocketsFrameWriter()

    init(wsi: OpaquePointer, channel: WebSocketChannel, now: UInt64) {
        self.wsi = wsi
        self.channel = channel
        assembler = WebSocketMessageAssembler(limit: channel.configuration.maximumMessageBytes)
        lastHeard = now
    }

    /// Writes one message (or ping) in one `lws_write`.
    /// - Returns: `false` when the write failed (the connection is going).
    func write(_ payload: [UInt8], _ protocolKind: lws_write_protocol) -> Bool {
        writer.write(payload, as: protocolKind, on: wsi)
    }

    /// Once a close waits in the channel's queue: lws drops the connection after `seconds` if the
    /// close cannot be written by then.
    func armCloseGrace(seconds: Int32 = 5) {
        guard !closeGraceArmed, channel.isClosing else { return }
        closeGraceArmed = true
        courier_lws_close_within(wsi, seconds)
    }

    /// Sets the close frame lws sends when the callback returns -1.
    func setClose(_ close: WebSocketClose) { LibWebSocketsFrameWriter.setClose(close, on: wsi) }
}
