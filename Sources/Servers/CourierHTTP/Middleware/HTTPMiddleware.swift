/// The rest of the chain, as a middleware sees it.
public typealias HTTPResponder = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

/// A shared concern around every request (log, metrics, CORS, authentication, rate limits…),
/// as a small type: it may answer by itself, change the request or context, call `next`, and
/// change or replace its answer (Hummingbird's `MiddlewareProtocol` is the model).
///
/// ```swift
/// struct RequireJSON: HTTPMiddleware {
///     func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
///         guard request.method != "POST" || request.header("content-type")?.hasPrefix("application/json") == true else {
///             throw HTTPError(HTTPError.Code("unsupported_media_type", status: 415), "send JSON")
///         }
///         return try await next(request, context)
///     }
/// }
/// let server = HTTPServer(configuration: configuration, router: router, middleware: [RequireJSON()])
/// ```
///
/// Errors a middleware or handler throws become answers (an `HTTPResponseError`'s own, or
/// `500 internal_error`) before they reach the server's access log, metrics and CORS layers.
public protocol HTTPMiddleware: Sendable {
    /// Handles one request, usually by calling `next`.
    /// - Throws: an error to answer with instead.
    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse
}

extension Array where Element == any HTTPMiddleware {
    /// The chain: the first middleware is the outermost.
    func chained(to endpoint: @escaping HTTPResponder) -> HTTPResponder {
        reversed().reduce(endpoint) { next, middleware in
            { request, context in try await middleware.handle(request, context: context, next: next) }
        }
    }
}
