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
