import CourierCore

/// Copies an error answer's `code` and `message` to the top level of its body, beside `error`,
/// for clients that read them there: Segment's libraries on the collector's routes. Mount it on
/// those routes' group; the server's own refusals inside the group (413, bad gzip) get it too.
///
/// ```swift
/// router.group(middleware: [TopLevelErrorFieldsMiddleware()]) { ingest in
///     ingest.add("POST", "/v1/batch") { request, _ in try await collector.ingest(request) }
/// }
/// ```
public struct TopLevelErrorFieldsMiddleware: SynchronousHTTPMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Calls `next`, and adds the fields to the `HTTPError` it throws.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws
        -> HTTPResponse
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            throw error.withTopLevelFields()
        }
    }

    /// Calls `next` without waiting, and adds the fields to the `HTTPError` it throws.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        do {
            return try next(request, context)
        } catch let error as HTTPError {
            throw error.withTopLevelFields()
        }
    }
}

extension HTTPError {
    /// This error with `code` and `message` also at the top level of its body, as
    /// `TopLevelErrorFieldsMiddleware` sends it (for answers built outside a route's chain).
    public func withTopLevelFields() -> HTTPError {
        var error = self
        error.details["code"] = .string(code.rawValue)
        error.details["message"] = .string(message)
        return error
    }
}
