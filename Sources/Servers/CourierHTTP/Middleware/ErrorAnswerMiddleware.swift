/// Turns what the inner chain throws into an answer: an `HTTPResponseError`'s own response, any
/// other error `500 internal_error` without its text (which may hold internals).
struct ErrorAnswerMiddleware: SynchronousHTTPMiddleware {
    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        do {
            return try await next(request, context)
        } catch {
            return Self.answer(error)
        }
    }

    func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        do {
            return try next(request, context)
        } catch {
            return Self.answer(error)
        }
    }

    private static func answer(_ error: any Error) -> HTTPResponse {
        if let error = error as? any HTTPResponseError { return error.response() }
        return HTTPError(.internalError, "the request failed inside the server").response()
    }
}
