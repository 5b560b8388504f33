import CourierHTTP

/// Lets a console session stand for the admin token: a request with the session cookie and no
/// `Authorization` header, to an admin route (one under `/v1/` that admits no browser origin),
/// is passed on with `Authorization: Bearer <admin token>`, so the page calls exactly the admin
/// APIs the CLI calls. Methods other than GET and HEAD need the session's `X-CSRF-Token`.
///
/// A request it passes on for a session carries `X-Courier-Actor: console`, which the flag audit
/// records as who made a change; any other request it sees has that header removed (emptied), so
/// only a session is recorded as the console. Routes it cannot apply to (`applies(toRoute:…)`)
/// may run without it, so they must not read that header.
struct ConsoleSessionMiddleware: RouteScopedMiddleware {
    let console: Console
    static let actorHeader = "x-courier-actor"

    /// Only admin routes (under `/v1/`, admitting no browser origin) take a session or read the
    /// actor header: others (health, metrics, public ingest) go without this layer. A route whose
    /// first segment is `v1` or a parameter may take a path under `/v1/` (`/v1` itself takes
    /// `/v1/`), so it keeps the layer.
    func applies(toRoute pattern: String, crossOrigin: CrossOriginPolicy) -> Bool {
        guard crossOrigin == .none else { return false }
        let first = pattern.split(separator: "/").first ?? ""
        return first == "v1" || (first.hasPrefix("{") && first.hasSuffix("}"))
    }

    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        let request = request.header(Self.actorHeader) == nil ? request : request.settingHeader(Self.actorHeader, "")
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
        let passed = request.settingHeader("authorization", "Bearer \(token)").settingHeader(
            Self.actorHeader, "console")
        var vouched = context
        vouched.credentialFromSession = true
        return try await next(passed, vouched)
    }
}
