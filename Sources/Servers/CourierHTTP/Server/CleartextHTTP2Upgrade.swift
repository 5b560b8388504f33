internal import CLibWebSockets

/// Keeps a plaintext request that asks to upgrade to HTTP/2 (`Upgrade: h2c`, as `curl --http2`
/// sends on `http://`) on HTTP/1.1.
///
/// lws 4.1 answers such a request with `101 Switching Protocols` and speaks HTTP/2 from then on,
/// which the engine does not serve (it writes HTTP/1.1 answers), so the client got no answer at
/// all. A server may answer the request as though the `Upgrade` header were absent (RFC 7540,
/// 3.2), and that is what the engine does; lws has no option for it. Its one hook,
/// `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`, hands over the header's value where lws keeps it and
/// compares that value when the callback returns: the engine blanks its first byte there, so lws
/// finds no protocol it knows and serves the request as HTTP/1.1 (calling `LWS_CALLBACK_HTTP`
/// before it returns), and puts the byte back at `LWS_CALLBACK_HTTP`, so a handler sees the
/// header as the client sent it. Service thread only.
struct CleartextHTTP2Upgrade {
    /// The connection whose `Upgrade` value was blanked, where that value is, and the byte it
    /// began with (`h` or `H`).
    private var blanked: (wsi: OpaquePointer, value: UnsafeMutablePointer<UInt8>, first: UInt8)?

    /// At `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`: blanks `value` (lws's NUL-terminated `Upgrade`
    /// value) when it names `h2c`; any other upgrade is left to lws.
    mutating func decline(_ wsi: OpaquePointer, value: UnsafeMutableRawPointer) {
        blanked = nil
        let text = value.assumingMemoryBound(to: UInt8.self)
        guard text[0] | 0x20 == UInt8(ascii: "h"), text[1] == UInt8(ascii: "2"), text[2] | 0x20 == UInt8(ascii: "c"),
            text[3] == 0
        else { return }
        blanked = (wsi, text, text[0])
        text[0] = 0
    }

    /// At `LWS_CALLBACK_HTTP`: puts back the byte `decline` blanked on `wsi`, if it did. lws
    /// calls it for that request before it returns from the confirmation (lws 4.1: nothing
    /// between them reads from the socket or lets the header table go), and the value is checked
    /// to still be the blanked one, through lws's own reading of the header, before it is written.
    mutating func restore(_ wsi: OpaquePointer) {
        guard let (blankedWSI, value, first) = blanked else { return }
        blanked = nil
        guard blankedWSI == wsi, lws_hdr_fragment_length(wsi, WSI_TOKEN_UPGRADE, 0) == 3 else { return }
        var copy: (CChar, CChar, CChar, CChar) = (1, 1, 1, 1)
        let copied = withUnsafeMutableBytes(of: &copy) { buffer in
            lws_hdr_copy_fragment(wsi, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), 4, WSI_TOKEN_UPGRADE, 0)
        }
        guard copied == 3, copy.0 == 0, value[0] == 0, value[1] == UInt8(ascii: "2"), value[3] == 0 else { return }
        value[0] = first
    }

    /// When a connection goes: forgets a value blanked on it that lws never served.
    mutating func forget(_ wsi: OpaquePointer) {
        if blanked?.wsi == wsi { blanked = nil }
    }
}
