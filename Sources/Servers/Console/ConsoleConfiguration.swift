import CourierHTTP

/// How the console signs people in.
public struct ConsoleConfiguration: Sendable {
    /// The admin token a person signs in with (the same one the CLI sends as a bearer token);
    /// `nil` disables sign-in.
    public var adminToken: String?
    /// How long a session lasts after sign-in.
    public var sessionLifetime: Duration = .seconds(8 * 3600)
    /// Sessions kept at most; the oldest is signed out first.
    public var maximumSessions = 256
    /// Marks the session cookie `Secure`: set it when the server is behind TLS.
    public var secureCookies = false
    /// Sign-in attempts allowed per client address (a burst, then one per interval).
    public var signInLimit = RateLimit(perSecond: 0.1, burst: 5)

    /// Sign-in disabled, 8-hour sessions, cookies without `Secure`.
    public init() {}
}
