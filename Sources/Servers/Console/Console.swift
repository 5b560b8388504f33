import CourierCore
import CourierHTTP

/// Courier Console: the web page at `/console/` for the people who run the servers.
///
/// A person signs in with the admin token and gets a session cookie; the page then calls the
/// same admin APIs the CLI calls, and `middleware` lets the session stand in for the bearer
/// token there (with the CSRF token required on every state-changing request). Sessions live
/// in a `ConsoleSessionStore`: in memory by default, or `PostgresConsoleSessionStore` for
/// instances that share sign-ins and the sign-in limit.
///
/// ```swift
/// var configuration = ConsoleConfiguration()
/// configuration.adminToken = adminToken
/// let console = Console(configuration: configuration)
/// console.mount(on: &router)
/// let server = HTTPServer(configuration: http, router: router, middleware: [console.middleware])
/// ```
public final class Console: Sendable {
    /// The session cookie's name.
    public static let cookieName = "courier_console"
    /// The header that carries the CSRF token.
    public static let csrfHeader = "x-csrf-token"

    /// How the console signs people in.
    public let configuration: ConsoleConfiguration
    /// Where the live sessions are kept.
    public let sessions: any ConsoleSessionStore
    let clock: any Clock
    let signInLimiter: RateLimiter

    /// Creates the console.
    /// - Parameters:
    ///   - configuration: the admin token, session lifetime and sign-in limit.
    ///   - sessions: where sessions are kept: in memory by default, `PostgresConsoleSessionStore`
    ///     for instances that share sign-ins and the sign-in limit (kept per instance otherwise).
    ///   - clock: the source of time for expiry and the sign-in limit.
    public init(
        configuration: ConsoleConfiguration, sessions: any ConsoleSessionStore = InMemoryConsoleSessionStore(),
        clock: any Clock = SystemClock()
    ) {
        self.configuration = configuration
        self.clock = clock
        self.sessions = sessions
        signInLimiter = RateLimiter(
            perSecond: configuration.signInLimit.perSecond, burst: configuration.signInLimit.burst, clock: clock)
    }

    /// Adds the page, its assets and the session routes to `router`.
    public func mount(on router: inout Router) {
        mountAssets(on: &router)
        router.add("GET", "/console/api/session") { [self] request, _ in try await currentSession(request) }
        router.add("POST", "/console/api/session") { [self] request, _ in try await signIn(request) }
        router.add("DELETE", "/console/api/session") { [self] request, _ in try await signOut(request) }
    }

    /// The middleware that lets a console session stand for the admin token on admin routes.
    public var middleware: any HTTPMiddleware { ConsoleSessionMiddleware(console: self) }

    /// The admin token, or the refusal when the console is disabled.
    func requireAdminToken() throws -> String {
        guard let token = configuration.adminToken, !token.isEmpty else {
            throw HTTPError(.consoleDisabled, "the console needs an admin token (--admin-token-file)")
        }
        return token
    }

    /// Refuses a state-changing request whose `X-CSRF-Token` is not the session's.
    func requireCSRFToken(_ request: HTTPRequest, session: ConsoleSession) throws {
        guard let given = request.header(Self.csrfHeader), ConstantTime.equals(given, session.csrfToken) else {
            throw HTTPError(.csrfRefused, "this request needs the session's X-CSRF-Token header")
        }
    }
}
