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

    /// Decodes standard base64 (RFC 4648 §4) strictly: padding is optional, but where present it
    /// is the one or two `=` that complete the last quantum; no other character, no `=` inside,
    /// no set bit after the last byte (so each byte string has exactly one spelling, padded or
    /// not), and never empty.
    ///
    /// ```swift
    /// Base64.decodeStrict("AA==")  // [0]
    /// Base64.decodeStrict("AA")    // [0]
    /// Base64.decodeStrict("AA=A")  // nil
    /// Base64.decodeStrict("")      // nil
    /// ```
    /// - Returns: the bytes, or `nil` when `text` is not strict base64 of at least one byte.
    public static func decodeStrict(_ text: String) -> [UInt8]? {
        var symbols = Array(text.utf8)
        if symbols.count % 4 == 0, symbols.last == UInt8(ascii: "=") {
            symbols.removeLast()
            if symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
            // "A===" or "====": padding may stand for at most two symbols.
            guard symbols.count % 4 >= 2 else { return nil }
        }
        guard !symbols.isEmpty, symbols.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(symbols.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            guard let value = strictValue(symbol) else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // The 2 or 4 bits left over must be zero.
        guard accumulator == 0 else { return nil }
        return out
    }

    private static func strictValue(_ symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }

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
