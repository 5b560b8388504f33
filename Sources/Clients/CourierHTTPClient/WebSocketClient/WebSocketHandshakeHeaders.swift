/// The caller's headers for the opening handshake, checked: `Origin` and `Host` are set through
/// the handshake's own fields, the rest are appended as given.
package struct WebSocketHandshakeHeaders: Sendable {
    /// The `Origin` header, when the caller gave one.
    package var origin: String?
    /// A `Host` header replacing the one made from the URL.
    package var host: String?
    /// Every other header, in order, with the name as given.
    package var extra: [(name: String, value: String)] = []

    /// Headers the WebSocket handshake itself writes; the caller may not set them.
    package static let reserved: Set<String> = [
        "connection", "upgrade", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
        "sec-websocket-protocol", "content-length", "transfer-encoding",
    ]

    /// Checks `headers`: names must be HTTP tokens, values free of CR, LF and NUL.
    /// - Throws: `WebSocketError` `connectFailed`, before anything is sent.
    package init(_ headers: [(String, String)]) throws(WebSocketError) {
        for (name, value) in headers {
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                throw WebSocketError(.connectFailed, "\"\(name)\" is not a valid header name")
            }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw WebSocketError(.connectFailed, "the value of \(name) contains CR, LF or NUL")
            }
            let lowered = name.lowercased()
            if Self.reserved.contains(lowered) {
                throw WebSocketError(.connectFailed, "\(name) is set by the WebSocket handshake itself")
            }
            switch lowered {
            case "origin": origin = value
            case "host": host = value
            default: extra.append((name, value))
            }
        }
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
