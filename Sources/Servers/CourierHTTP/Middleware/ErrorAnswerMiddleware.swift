/// Turns what the inner chain throws into an answer: an `HTTPResponseError`'s own response, any
/// other error `500 internal_error` without its text (which may hold internals).
struct ErrorAnswerMiddleware: HTTPMiddleware {
    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            return error.response()
        } catch {
            return HTTPError(.internalError, "the request failed inside the server").response()
        }
    }
}
