/// Requires `Authorization: Bearer <token>` with one of the accepted tokens (compared in
/// constant time) on the routes `applies` picks; others get `403 forbidden`.
///
/// ```swift
/// let admin = BearerAuthMiddleware(tokens: [adminToken]) { _, context in context.route?.hasPrefix("/admin") == true }
/// ```
public struct BearerAuthMiddleware: SynchronousHTTPMiddleware {
    let tokens: [String]
    let applies: @Sendable (HTTPRequest, RequestContext) -> Bool

    /// Creates the middleware.
    /// - Parameters:
    ///   - tokens: the accepted tokens.
    ///   - applies: which requests need one (all by default).
    public init(
        tokens: [String], applies: @escaping @Sendable (HTTPRequest, RequestContext) -> Bool = { _, _ in true }
    ) {
        self.tokens = tokens
        self.applies = applies
    }

    /// Checks the token, then calls `next`.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws
        -> HTTPResponse
    {
        try check(request, context: context)
        return try await next(request, context)
    }

    /// Checks the token, then calls `next`, without waiting.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        try check(request, context: context)
        return try next(request, context)
    }

    private func check(_ request: HTTPRequest, context: RequestContext) throws {
        guard applies(request, context), !request.hasBearerToken(in: tokens) else { return }
        throw HTTPError(.forbidden, "a valid token is required (Authorization: Bearer …)")
    }
}
