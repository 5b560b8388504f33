/// Subject tokens built from text a client chose (an account id, a sync owner, an environment
/// key), so that a dot, a space or a wildcard in it cannot reach a subject it was not meant for.
public enum BusSubject {
    /// `text` itself when it is 1–64 bytes of letters, digits, `-` and `_`; otherwise `h` and 16
    /// hex digits of its FNV-1a 64 hash (two texts may then share a token: a spurious wake-up,
    /// never a lost one).
    public static func token(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let plain =
            !bytes.isEmpty && bytes.count <= 64
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    return true
                default: return false
                }
            }
        if plain && bytes.first != UInt8(ascii: "h") { return text }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "h" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether `subject` matches `pattern` (`*` is one token, a final `>` one or more).
    public static func matches(_ subject: String, pattern: String) -> Bool {
        let tokens = subject.split(separator: ".", omittingEmptySubsequences: false)
        let wanted = pattern.split(separator: ".", omittingEmptySubsequences: false)
        for (index, token) in wanted.enumerated() {
            if token == ">" { return index == wanted.count - 1 && tokens.count > index }
            guard index < tokens.count else { return false }
            if token != "*" && token != tokens[index] { return false }
        }
        return tokens.count == wanted.count
    }
}
