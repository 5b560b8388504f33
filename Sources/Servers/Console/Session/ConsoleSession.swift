/// A signed-in console session: the cookie's id, the token state-changing requests must echo,
/// and when it ends.
public struct ConsoleSession: Sendable, Equatable {
    /// The session cookie's value.
    public let id: String
    /// The CSRF token: sent back in `X-CSRF-Token` on every state-changing request.
    public let csrfToken: String
    /// When the session ends, in milliseconds since 1970.
    public let expiresAtMilliseconds: Int64
}

extension ConsoleSession {
    /// 32 random bytes from the system's cryptographic generator, as hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            text += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return text
    }
}
