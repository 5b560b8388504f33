extension Responder {
    /// Runs an upgraded request through the middleware chain: 101 means its WebSocket route
    /// accepted it. Returns the routed request (path parameters filled in) and its context too, as
    /// the route's handler gets both.
    func respondToUpgrade(_ request: HTTPRequest, startedAt: UInt64) async -> (
        HTTPResponse, HTTPRequest, RequestContext, WebSocketRoute?
    ) {
        var request = request
        request.resolveClient(trustedProxies: configuration.trustedProxies)
        let match = router.match(method: request.method, path: request.path)
        var route: WebSocketRoute?
        if case .found(let found, let parameters) = match {
            request.pathParameters = parameters
            route = found.webSocket
        }
        var context = RequestContext(
            requestID: Self.requestID(request), match: match, startedAt: startedAt, bodyTooLarge: false)
        context.isWebSocketUpgrade = true
        return (await answer(request, context: context), request, context, route)
    }
}
