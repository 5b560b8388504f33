internal import CLibWebSockets

/// Keeps on HTTP/1.1 a request that asks to upgrade to something this server does not serve
/// there, answering it as though the `Upgrade` header were absent (a server may: RFC 9110,
/// 7.8; RFC 7540, 3.2):
///
/// - `Upgrade: h2c` on plaintext (`curl --http2 http://…`): lws 4.1 answered `101` and spoke
///   HTTP/2 from then on, which the engine does not serve, so the client got no answer at all.
/// - `Upgrade: websocket` on a path with no WebSocket route: lws completes every WebSocket
///   handshake itself before the route is known, so such a request got `101` and a close with
///   code 4000 + the status of the plain route's answer (`4404`, or `4200` with reason `OK` from
///   a `GET` route that had run). A page on any site can open a WebSocket to this server with
///   its visitor's cookies (browsers apply no CORS to WebSockets), and those close codes told it
///   what the visitor's plain `GET` routes answered. Now the route's answer is an HTTP one, which
///   a browser's `WebSocket` does not show the page.
///
/// lws has no option for either. Its one hook, `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`, hands over
/// the header's value where lws keeps it and compares that value when the callback returns: the
/// engine blanks its first byte there, so lws finds no protocol it knows and serves the request
/// as HTTP/1.1 (calling `LWS_CALLBACK_HTTP` before it returns), and puts the byte back at
/// `LWS_CALLBACK_HTTP`, so a handler sees the header as the client sent it. Service thread only.
struct DeclinedUpgrade {
    /// The connection whose `Upgrade` value was blanked, where that value is, its length, and
    /// the byte it began with.
    private var blanked: (wsi: OpaquePointer, value: UnsafeMutablePointer<UInt8>, length: Int, first: UInt8)?

    /// At `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`: blanks `value` (lws's NUL-terminated `Upgrade`
    /// value) when it names `h2c`, or `websocket` while `hasWebSocketRoute` says the request's
    /// path has no WebSocket route; any other upgrade is left to lws.
    mutating func decline(
        _ wsi: OpaquePointer, value: UnsafeMutableRawPointer, hasWebSocketRoute: (OpaquePointer) -> Bool
    ) {
        blanked = nil
        let text = value.assumingMemoryBound(to: UInt8.self)
        let length: Int
        if Self.text(text, is: "h2c") {
            length = 3
        } else if Self.text(text, is: "websocket"), !hasWebSocketRoute(wsi) {
            length = 9
        } else {
            return
        }
        blanked = (wsi, text, length, text[0])
        text[0] = 0
    }

    /// At `LWS_CALLBACK_HTTP`: puts back the byte `decline` blanked on `wsi`, if it did. lws
    /// calls it for that request before it returns from the confirmation (lws 4.1: nothing
    /// between them reads from the socket or lets the header table go), and the value is checked
    /// to still be the blanked one, through lws's own reading of the header, before it is written.
    mutating func restore(_ wsi: OpaquePointer) {
        guard let (blankedWSI, value, length, first) = blanked else { return }
        blanked = nil
        guard blankedWSI == wsi, lws_hdr_fragment_length(wsi, WSI_TOKEN_UPGRADE, 0) == length else { return }
        var copy = [CChar](repeating: 1, count: length + 1)
        let copied = lws_hdr_copy_fragment(wsi, &copy, Int32(copy.count), WSI_TOKEN_UPGRADE, 0)
        guard copied == length, copy[0] == 0, value[0] == 0, value[length] == 0 else { return }
        value[0] = first
    }

    /// When a connection goes: forgets a value blanked on it that lws never served.
    mutating func forget(_ wsi: OpaquePointer) {
        if blanked?.wsi == wsi { blanked = nil }
    }

    /// Whether the NUL-terminated `text` is `token` (lowercase ASCII) with its letters in any
    /// case, as lws's `strcasecmp` compares: only `A`–`Z` fold (`h\u{12}c` is not `h2c`).
    static func text(_ text: UnsafePointer<UInt8>, is token: StaticString) -> Bool {
        let bytes = UnsafeBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount)
        for (index, byte) in bytes.enumerated() {
            let given = text[index]
            if (given >= 65 && given <= 90 ? given | 0x20 : given) != byte { return false }
        }
        return text[bytes.count] == 0
    }
}
