import CourierHTTP

/// Where the console's sessions live: in memory by default (`InMemoryConsoleSessionStore`, one
/// server), or in PostgreSQL (`PostgresConsoleSessionStore`) so that instances behind one load
/// balancer share them: a cookie made on one works on the others, and signing out on one ends
/// it on all.
///
/// A store never sees a cookie's value, only its SHA-256 digest (`ConsoleSessionRecord`): what
/// it keeps cannot be replayed as a cookie. Times are milliseconds since 1970, read from the
/// console's clock.
public protocol ConsoleSessionStore: Sendable {
    /// Keeps `session`, first dropping the sessions expired at `now` and, when that leaves
    /// `maximumSessions` or more, those closest to expiry, so that at most `maximumSessions`
    /// remain, `session` among them.
    /// - Throws: when the store fails.
    func insert(_ session: ConsoleSessionRecord, maximumSessions: Int, now: Int64) async throws
    /// The session whose id has this digest, or `nil` when there is none or it expired by `now`.
    /// - Throws: when the store fails.
    func session(idDigest: [UInt8], now: Int64) async throws -> ConsoleSessionRecord?
    /// Ends the session whose id has this digest, if there is one.
    /// - Throws: when the store fails.
    func remove(idDigest: [UInt8]) async throws
    /// Spends one sign-in attempt from the bucket of the client whose address has this SHA-256
    /// digest, a bucket every instance on the store shares; `nil` when the store keeps no limits
    /// (the default), and each instance then limits on its own.
    /// - Throws: when the store fails.
    func takeSignInAttempt(keyDigest: [UInt8], limit: RateLimit, now: Int64) async throws -> RateLimiter.Decision?
}

extension ConsoleSessionStore {
    /// No shared limits: each instance keeps its own.
    public func takeSignInAttempt(keyDigest: [UInt8], limit: RateLimit, now: Int64) async throws
        -> RateLimiter.Decision?
    {
        nil
    }
}

/// A session as a store keeps it: the SHA-256 digest of the cookie's value, never the value.
public struct ConsoleSessionRecord: Sendable, Equatable {
    /// SHA-256 of the session id (the cookie's value, as UTF-8).
    public let idDigest: [UInt8]
    /// The session's CSRF token.
    public let csrfToken: String
    /// When the session ends, in milliseconds since 1970.
    public let expiresAtMilliseconds: Int64

    /// Creates a record.
    public init(idDigest: [UInt8], csrfToken: String, expiresAtMilliseconds: Int64) {
        self.idDigest = idDigest
        self.csrfToken = csrfToken
        self.expiresAtMilliseconds = expiresAtMilliseconds
    }
}
