import CourierHTTP

/// Gives the HTTP layer's own errors on the collector's routes (a body over the limit, bad gzip,
/// no such route) Segment's shape too, with `code` and `message` at the top level: Segment's
/// clients read those. Mount it with the collector: `HTTPServer(…, middleware: collector.middleware)`.
struct SegmentErrorShapeMiddleware: HTTPMiddleware {
    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return CollectorError.segmentShaped(
                status: error.status, code: error.code.rawValue, message: error.message, headers: error.headers)
        }
    }
}

extension Collector {
    /// The middleware the collector's routes expect: HTTP errors in Segment's shape.
    public var middleware: [any HTTPMiddleware] { [SegmentErrorShapeMiddleware()] }
}
