/// The rest of a chain that never waits, as a synchronous middleware sees it.
public typealias SynchronousHTTPResponder = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse

/// A middleware that never waits (no file, database, lock or network waits, nothing awaited):
/// besides its `async` form it answers through plain calls, so a route on the engine's loop
/// (`RouteExecution.onLoop`) with a synchronous handler runs its whole chain in the loop's
/// callback, with no task, executor hop or `async` frame per layer.
///
/// Both forms must do the same: write the work once and call it from each.
///
/// ```swift
/// struct RequireJSON: SynchronousHTTPMiddleware {
///     func check(_ request: HTTPRequest) throws {
///         guard request.method != "POST" || request.header("content-type")?.hasPrefix("application/json") == true else {
///             throw HTTPError(HTTPError.Code("unsupported_media_type", status: 415), "send JSON")
///         }
///     }
///     func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
///         try check(request)
///         return try await next(request, context)
///     }
///     func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws -> HTTPResponse {
///         try check(request)
///         return try next(request, context)
///     }
/// }
/// ```
///
/// A route on the loop runs synchronously only when every middleware around it (the server's and
/// its groups') is synchronous or leaves the route out (`RouteScopedMiddleware`); otherwise it
/// runs as a task on the loop, as before.
public protocol SynchronousHTTPMiddleware: HTTPMiddleware {
    /// Handles one request without waiting, usually by calling `next`.
    /// - Throws: an error to answer with instead.
    func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
}

/// A middleware with nothing to do on some routes, which is then left out of their chain: a route
/// on the loop can run synchronously beside a server-wide middleware that awaits, when that
/// middleware leaves the route out. Only the loop's synchronous chains are built without it.
public protocol RouteScopedMiddleware: HTTPMiddleware {
    /// Whether the middleware has anything to do on the route `pattern` (as added, such as
    /// `/v1/projects/{writeKey}/settings`) that admits `crossOrigin`.
    func applies(toRoute pattern: String, crossOrigin: CrossOriginPolicy) -> Bool
}

extension Array where Element == any HTTPMiddleware {
    /// The synchronous chain of a route, outermost first, or `nil` when a middleware that applies
    /// to the route can wait.
    func synchronouslyChained(
        to endpoint: @escaping SynchronousHTTPResponder, route pattern: String, crossOrigin: CrossOriginPolicy
    ) -> SynchronousHTTPResponder? {
        var layers: [any SynchronousHTTPMiddleware] = []
        for middleware in self {
            if let scoped = middleware as? any RouteScopedMiddleware,
                !scoped.applies(toRoute: pattern, crossOrigin: crossOrigin)
            {
                continue
            }
            guard let synchronous = middleware as? any SynchronousHTTPMiddleware else { return nil }
            layers.append(synchronous)
        }
        return layers.reversed().reduce(endpoint) { next, middleware in
            { request, context in try middleware.handle(request, context: context, next: next) }
        }
    }
}
