import Foundation

/// Base64 (RFC 4648 §4) and base64url (§5), one implementation for every module: HTTP Basic
/// credentials, keys and content on the wire, signed cursors and tokens.
///
/// ```swift
/// let text = Base64.encode([1, 2, 3])          // "AQID"
/// let token = Base64.encodeURL(signature)       // no padding, "-" and "_"
/// ```
public enum Base64 {
    /// Decodes standard base64 (padding optional).
    public static func decode(_ text: String) -> [UInt8]? {
        var padded = text
        while padded.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map { [UInt8]($0) }
    }

    /// Encodes bytes as standard base64, padded.
    public static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// Encodes bytes as base64url without padding (JWTs, signed cursors).
    public static func encodeURL(_ bytes: [UInt8]) -> String {
        var text = encode(bytes)
        while text.last == "=" { text.removeLast() }
        return String(
            text.map { character -> Character in
                switch character {
                case "+": "-"
                case "/": "_"
                default: character
                }
            })
    }

    /// Decodes base64url (padding optional); `nil` for anything else, standard base64's `+` and
    /// `/` included.
    public static func decodeURL(_ text: String) -> [UInt8]? {
        guard !text.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
        return decode(
            String(
                text.map { character -> Character in
                    switch character {
                    case "-": "+"
                    case "_": "/"
                    default: character
                    }
                }))
    }
}
