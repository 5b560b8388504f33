import CourierHTTP

/// Lets a console session stand for the admin token: a request with the session cookie and no
/// `Authorization` header, to an admin route (one under `/v1/` that admits no browser origin),
/// is passed on with `Authorization: Bearer <admin token>`, so the page calls exactly the admin
/// APIs the CLI calls. Methods other than GET and HEAD need the session's `X-CSRF-Token`.
struct ConsoleSessionMiddleware: HTTPMiddleware {
    let console: Console

    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        guard request.header("authorization") == nil, request.path.hasPrefix("/v1/"), context.route != nil,
            context.crossOrigin == .none, request.cookie(Console.cookieName) != nil
        else {
            return try await next(request, context)
        }
        let token = try console.requireAdminToken()
        let session = try await console.requireSession(request)
        if request.method != "GET" && request.method != "HEAD" {
            try console.requireCSRFToken(request, session: session)
        }
        return try await next(request.settingHeader("authorization", "Bearer \(token)"), context)
    }
}
