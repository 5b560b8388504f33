import Foundation

extension HTTPServer {
    /// Answers `request` through the same pipeline as the engine (routing, the middleware chain,
    /// the body limit, the checks on every answer), with no socket and no thread of its own: for
    /// CourierTesting's `RouterTestClient`. The server need not be started; a request counts as
    /// in flight while it is answered, so a drain waits for it as for one on the wire.
    /// - Returns: the answer as the engine would send it, a `HEAD` answer without its body; a
    ///   streamed body is left in `bodyStream` for the caller to read.
    package func respondInProcess(to request: HTTPRequest) async -> HTTPResponse {
        let lifecycle = responder.lifecycle
        lifecycle.enter()
        defer { lifecycle.leave() }
        let match = responder.router.match(method: request.method, path: request.path)
        let tooLarge = request.body.count > configuration.maximumBodyBytes
        let started = DispatchTime.now().uptimeNanoseconds
        var response: HTTPResponse
        if !tooLarge, let answered = responder.respondOnLoop(to: request, match: match, startedAt: started) {
            // As the engine runs it: the synchronous chain, with no task.
            response = answered
        } else {
            response = await responder.respond(
                to: tooLarge ? request.replacingBody(with: []) : request,
                match: match, bodyTooLarge: tooLarge, startedAt: started)
        }
        if request.method == .head {
            response.body = []
            response.bodyStream = nil
        }
        return response
    }
}

extension HTTPResponseBodyStream {
    /// Runs `body` on each chunk in order until it returns `false` or the body ends, as the
    /// engine does when it sends the body: for CourierTesting's `RouterTestClient`.
    /// - Throws: what the handler's sequence throws (the engine would cut the connection).
    package func read(_ body: @escaping @Sendable ([UInt8]) async -> Bool) async throws {
        try await forEach(body)
    }
}
