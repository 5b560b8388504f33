/// Guards admin routes: requires `Authorization: Bearer <token>` with the admin token (compared
/// in constant time) and answers `403 forbidden` otherwise. Without a configured token the admin
/// API is off and every request is refused. Mount it on the admin routes' group.
///
/// ```swift
/// router.group(middleware: [AdminAuthMiddleware(token: configuration.adminToken)]) { admin in
///     admin.add("GET", "/v1/projects") { request in try listProjects(request) }
/// }
/// ```
public struct AdminAuthMiddleware: SynchronousHTTPMiddleware {
    let token: String?

    /// Creates the middleware.
    /// - Parameter token: the admin token; `nil` refuses every request.
    public init(token: String?) {
        self.token = token
    }

    /// Checks the token, then calls `next`.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws
        -> HTTPResponse
    {
        try check(request)
        return try await next(request, context)
    }

    /// Checks the token, then calls `next`, without waiting.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        try check(request)
        return try next(request, context)
    }

    private func check(_ request: HTTPRequest) throws {
        guard let token else {
            throw HTTPError(.forbidden, "the admin API is disabled (no admin token configured)")
        }
        guard request.hasBearerToken(in: [token]) else {
            throw HTTPError(.forbidden, "a valid admin token is required (Authorization: Bearer …)")
        }
    }
}
