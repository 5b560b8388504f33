/// CORS by route: answers a browser's preflight (`OPTIONS` with `Access-Control-Request-Method`)
/// with 204 for a route that admits any origin and 403 otherwise, and adds
/// `Access-Control-Allow-Origin: *` to the answers of such routes when the request has an
/// `Origin`. A route that takes credentials must keep the default policy, `.none`.
struct CORSMiddleware: SynchronousHTTPMiddleware {
    let router: Router

    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        if let answer = preflightAnswer(request) { return answer }
        return allowingOrigin(request, context: context, response: try await next(request, context))
    }

    func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        if let answer = preflightAnswer(request) { return answer }
        return allowingOrigin(request, context: context, response: try next(request, context))
    }

    private func preflightAnswer(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == .options, let wanted = request.header(.accessControlRequestMethod) else {
            return nil
        }
        return preflight(request, method: HTTPMethod(rawValue: wanted))
    }

    private func allowingOrigin(_ request: HTTPRequest, context: RequestContext, response: HTTPResponse)
        -> HTTPResponse
    {
        guard context.crossOrigin == .anyOrigin, request.header(.origin) != nil else { return response }
        var response = response
        response.headers.append(("Access-Control-Allow-Origin", "*"))
        return response
    }

    private func preflight(_ request: HTTPRequest, method: HTTPMethod) -> HTTPResponse {
        guard case .found(let route, _) = router.match(method: method, path: request.path),
            route.crossOrigin == .anyOrigin
        else {
            return HTTPError(.forbidden, "cross-origin requests are not allowed for \(method) \(request.path)")
                .response()
        }
        return HTTPResponse(
            status: 204,
            headers: [
                ("Access-Control-Allow-Origin", "*"),
                ("Access-Control-Allow-Methods", route.method.rawValue),
                ("Access-Control-Allow-Headers", "Content-Type, Content-Encoding, Authorization"),
                ("Access-Control-Max-Age", "86400"),
            ])
    }
}
