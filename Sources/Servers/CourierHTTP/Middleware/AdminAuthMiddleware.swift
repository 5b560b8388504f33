import CourierCore

/// Guards admin routes: requires `Authorization: Bearer <token>` with the admin token (compared
/// in constant time) and answers `403 forbidden` otherwise. Without a configured token the admin
/// API is off and every request is refused. Mount it on the admin routes' group.
///
/// Wrong tokens are guesses, and are budgeted per client network (an IPv4 address, an IPv6
/// `/64`: `HTTPRequest.clientNetwork`), as the console's sign-in with the same token is: 10 at
/// once, then one every 10 s; past it every request from there, the right token included, is
/// `429 rate_limited` with `Retry-After` until the budget refills. A request with no bearer
/// token is not a guess and spends nothing. Each instance (each admin group) keeps its own
/// budget. A request whose credential a session middleware put on it
/// (`RequestContext.credentialFromSession`: the console) spends nothing and is never refused
/// for the budget. Behind a proxy that is not a `--trusted-proxy`, every client shares the
/// proxy's address, and so one budget.
///
/// ```swift
/// router.group(middleware: [AdminAuthMiddleware(token: configuration.adminToken)]) { admin in
///     admin.add("GET", "/v1/projects") { request in try listProjects(request) }
/// }
/// ```
public struct AdminAuthMiddleware: SynchronousHTTPMiddleware {
    /// The default budget of wrong tokens per client network: 10 at once, then one every 10 s.
    public static let defaultFailedAttempts = RateLimit(perSecond: 0.1, burst: 10)

    let token: String?
    let failures: RateLimiter

    /// Creates the middleware.
    /// - Parameters:
    ///   - token: the admin token; `nil` refuses every request.
    ///   - failedAttempts: wrong tokens allowed per client network.
    ///   - clock: the time the budget refills by.
    public init(
        token: String?, failedAttempts: RateLimit = Self.defaultFailedAttempts, clock: any Clock = SystemClock()
    ) {
        self.token = token
        failures = RateLimiter(failedAttempts, clock: clock)
    }

    /// Checks the token, then calls `next`.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws
        -> HTTPResponse
    {
        try check(request, context)
        return try await next(request, context)
    }

    /// Checks the token, then calls `next`, without waiting.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        try check(request, context)
        return try next(request, context)
    }

    private func check(_ request: HTTPRequest, _ context: RequestContext) throws {
        guard let token else {
            throw HTTPError(.forbidden, "the admin API is disabled (no admin token configured)")
        }
        // A session's token was earned through the sign-in's own budget.
        if context.credentialFromSession, request.hasBearerToken(in: [token]) { return }
        let client = request.clientNetwork
        if case .limited(let seconds) = failures.check(client) {
            throw HTTPError(
                .rateLimited, "too many wrong admin tokens from this client; retry later",
                headers: [("Retry-After", String(seconds))])
        }
        guard request.hasBearerToken(in: [token]) else {
            if request.bearerToken != nil { _ = failures.take(client) }
            throw HTTPError(.forbidden, "a valid admin token is required (Authorization: Bearer …)")
        }
    }
}
