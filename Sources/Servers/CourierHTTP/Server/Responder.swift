import CourierCore
import Foundation

/// The immutable request pipeline the engine's threads share: the middleware chain around the
/// router, and the checks on every answer.
///
/// The chain, outermost first: observation (access log, metrics, `X-Request-Id`) → CORS → error
/// answers → server guard (framing, draining) → the application's middleware → the route's group
/// middleware → request body (413, gzip) → the route's handler; the last three are chained once
/// per route (`Route.pipeline`). An `.onLoop` route with a synchronous handler and middleware
/// that never waits has the whole chain built once as plain calls (`Route.loopPipeline`).
struct Responder: Sendable {
    let router: Router
    let configuration: HTTPServerConfiguration
    let metrics: HTTPMetrics
    let lifecycle: ServerLifecycle
    private let observation: ObservationMiddleware
    private let chain: HTTPResponder

    init(
        router: Router, configuration: HTTPServerConfiguration, metrics: HTTPMetrics, lifecycle: ServerLifecycle,
        middleware: [any HTTPMiddleware] = []
    ) {
        let body = RequestBodyMiddleware(
            maximumBodyBytes: configuration.maximumBodyBytes,
            maximumDecompressedBodyBytes: configuration.maximumDecompressedBodyBytes)
        // Each route's group middleware, body layer and handler, chained once here: a group's
        // middleware sits before the body layer, so it also shapes a 413 or a bad-gzip refusal
        // on its routes, and its authentication runs before a body is inflated.
        var router = router
        for index in router.routes.indices {
            let handler = router.routes[index].handler
            router.routes[index].pipeline = (router.routes[index].middleware + [body]).chained(to: handler)
        }
        // A request no route takes still has its body checked (a 413 before a 404).
        let unrouted = [body].chained { request, context in
            switch context.match {
            case .methodNotAllowed(let allowed):
                throw HTTPError(
                    .methodNotAllowed, "\(request.method) is not allowed here",
                    headers: [("Allow", allowed.map(\.rawValue).joined(separator: ", "))])
            case .notFound, .found:
                throw HTTPError(.notFound, "no route for \(request.path)")
            }
        }
        let observation = ObservationMiddleware(metrics: metrics, accessLog: configuration.accessLog)
        let layers: [any HTTPMiddleware] =
            [
                observation, CORSMiddleware(router: router), ErrorAnswerMiddleware(),
                ServerGuardMiddleware(lifecycle: lifecycle),
            ]
            + middleware
        for index in router.routes.indices {
            let route = router.routes[index]
            router.routes[index].metricsSeries = metrics.series(method: route.method.rawValue, route: route.pattern)
            router.routes[index].loopPipeline = Self.loopPipeline(of: router.routes[index], layers: layers, body: body)
        }
        self.router = router
        self.configuration = configuration
        self.metrics = metrics
        self.lifecycle = lifecycle
        self.observation = observation
        chain = layers.chained { request, context in
            guard case .found(let route, _) = context.match else { return try await unrouted(request, context) }
            // A match from a router this responder did not prepare (a test's own) is chained now.
            let pipeline = route.pipeline ?? (route.middleware + [body]).chained(to: route.handler)
            return try await pipeline(request, context)
        }
    }

    /// The whole chain of an `.onLoop` route as plain calls, when its handler is synchronous and
    /// no middleware that applies to it can wait; `nil` otherwise (it then runs as a task). For a
    /// route with a `MemoryAnswer`, the chain ends in the answer it gave (`respondOnLoop`).
    private static func loopPipeline(
        of route: Router.Route, layers: [any HTTPMiddleware], body: RequestBodyMiddleware
    ) -> SynchronousHTTPResponder? {
        guard route.body == .whole, route.webSocket == nil else { return nil }
        let endpoint: SynchronousHTTPResponder
        if route.memoryAnswer != nil {
            endpoint = { _, context in
                guard let answer = context.memoryAnswer else {
                    throw HTTPError(.internalError, "the request failed inside the server")
                }
                return try answer.get()
            }
        } else if route.execution == .onLoop, let handler = route.synchronousHandler {
            endpoint = { request, _ in try handler(request) }
        } else {
            return nil
        }
        return (layers + route.middleware + [body]).synchronouslyChained(
            to: endpoint, route: route.pattern, crossOrigin: route.crossOrigin)
    }

    /// Answers a request whose body did not arrive whole (timeout or reset) without routing it.
    func refuseIncomplete(_ request: HTTPRequest, startedAt: UInt64) -> HTTPResponse {
        let context = RequestContext(
            requestID: Self.requestID(request), match: .notFound, startedAt: startedAt, bodyTooLarge: false)
        var response = HTTPError(.requestTimeout, "the request body did not arrive in time").response()
        response.headers.append(("X-Request-Id", context.requestID))
        Self.addNoSniff(&response)
        observation.record(request, context: context, response: response)
        return response
    }

    /// Answers a request whose body has been read (or refused as too large), or whose body
    /// arrives in `request.bodyFeed`; `match` is the router's answer for it.
    func respond(
        to request: HTTPRequest, match: Router.Match, bodyTooLarge: Bool, startedAt: UInt64
    ) async -> HTTPResponse {
        let (request, context) = prepared(request, match: match, bodyTooLarge: bodyTooLarge, startedAt: startedAt)
        return await answer(request, context: context)
    }

    /// Answers a request whose body has been read whole by running its route's `loopPipeline` in
    /// the caller's turn; `nil` when the route has none, or its `MemoryAnswer` has no answer (the
    /// route then runs as a task).
    func respondOnLoop(to request: HTTPRequest, match: Router.Match, startedAt: UInt64) -> HTTPResponse? {
        guard case .found(let route, let parameters) = match, let pipeline = route.loopPipeline else { return nil }
        // Most requests need nothing set (no proxy to resolve, no path parameter): they go down
        // the chain as they came, without a copy.
        if configuration.trustedProxies.isEmpty, parameters.isEmpty {
            let context = context(for: request, match: match, bodyTooLarge: false, startedAt: startedAt)
            return runLoopPipeline(pipeline, of: route, for: request, context: context)
        }
        let (request, context) = prepared(request, match: match, bodyTooLarge: false, startedAt: startedAt)
        return runLoopPipeline(pipeline, of: route, for: request, context: context)
    }

    /// Runs `route`'s synchronous chain for a prepared request; `nil` when its `MemoryAnswer` has
    /// no answer.
    private func runLoopPipeline(
        _ pipeline: SynchronousHTTPResponder, of route: Router.Route, for request: HTTPRequest,
        context preparedContext: RequestContext
    ) -> HTTPResponse? {
        var context = preparedContext
        if let memory = route.memoryAnswer {
            do {
                guard let answer = try memory(request) else { return nil }
                context.memoryAnswer = .success(answer)
            } catch {
                context.memoryAnswer = .failure(error)
            }
        }
        let response: HTTPResponse
        do {
            response = try pipeline(request, context)
        } catch {
            response = Self.uncaught
        }
        return checked(consume response)
    }

    /// The request as the chain gets it (the client resolved, the path parameters set), and its
    /// context.
    private func prepared(
        _ request: HTTPRequest, match: Router.Match, bodyTooLarge: Bool, startedAt: UInt64
    ) -> (HTTPRequest, RequestContext) {
        var request = request
        request.resolveClient(trustedProxies: configuration.trustedProxies)
        if case .found(_, let parameters) = match { request.pathParameters = parameters }
        return (request, context(for: request, match: match, bodyTooLarge: bodyTooLarge, startedAt: startedAt))
    }

    /// The context of a request as the chain gets it (its client resolved, or, with no trusted
    /// proxy, the peer it already names).
    private func context(
        for request: HTTPRequest, match: Router.Match, bodyTooLarge: Bool, startedAt: UInt64
    ) -> RequestContext {
        var context = RequestContext(
            requestID: Self.requestID(request), match: match, startedAt: startedAt, bodyTooLarge: bodyTooLarge)
        if case .found(let route, _) = match, request.method == route.method {
            context.metricsSeries = route.metricsSeries
        }
        return context
    }

    /// Runs the chain for a routed request, and checks what it answers.
    func answer(_ request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await chain(request, context)
        } catch {
            response = Self.uncaught
        }
        return checked(consume response)
    }

    /// What a request is answered when the chain throws past the error layer, which answers
    /// everything thrown inside it: only the outer layers are left.
    private static var uncaught: HTTPResponse {
        HTTPError(.internalError, "the request failed inside the server").response()
    }

    /// The chain's answer as it may go out: refused when a header could split it, and with
    /// `X-Content-Type-Options`.
    /// `response` is consumed, so the header goes into its own array rather than into a copy.
    private func checked(_ response: consuming HTTPResponse) -> HTTPResponse {
        if !Self.headersAreSafe(response.headers) {
            // A value with CR or LF would let whoever controls it add headers or split the
            // response; nothing of such a response is sent.
            response = HTTPError(.internalError, "the response had an invalid header").response()
        }
        Self.addNoSniff(&response)
        return response
    }

    /// Tells browsers to take the declared `Content-Type` at its word (a JSON answer holding
    /// client text is never run as script or styles), unless the handler said otherwise.
    static func addNoSniff(_ response: inout HTTPResponse) {
        if response.header("x-content-type-options") == nil {
            response.headers.append(("X-Content-Type-Options", "nosniff"))
        }
    }

    /// The client's `X-Request-Id` when it is short and plain, else a new id.
    static func requestID(_ request: HTTPRequest) -> String {
        if let given = request.header(.requestID), !given.isEmpty, given.utf8.count <= 64,
            given.utf8.allSatisfy({
                ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95
                    || $0 == 46
            })
        {
            return given
        }
        return RequestIDs.next()
    }

    /// Why the request's framing is ambiguous, or `nil` when it is not, from the values of its
    /// `Content-Length` and `Transfer-Encoding`: two different lengths, or a length beside chunked
    /// framing, are how requests are smuggled past a proxy that reads the other one.
    static func framingProblem(contentLength: String?, transferEncoding: String?) -> String? {
        guard let length = contentLength else { return nil }
        // A repeated header was joined with commas; one value (nearly always) is not split.
        if length.utf8.contains(UInt8(ascii: ",")) {
            let values = Set(length.split(separator: ",").map { String($0).trimmingCharactersInWhitespace() })
            if values.count > 1 { return "conflicting Content-Length headers" }
        }
        if transferEncoding != nil { return "Content-Length and Transfer-Encoding together" }
        return nil
    }

    static func headersAreSafe(_ headers: [(String, String)]) -> Bool {
        for (name, value) in headers {
            if name.isEmpty || name.utf8.containsByte(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: ":") }) {
                return false
            }
            if value.utf8.containsByte(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) { return false }
        }
        return true
    }
}

/// Refuses requests with ambiguous framing (400) and, while the server stops, new requests (503).
struct ServerGuardMiddleware: SynchronousHTTPMiddleware {
    let lifecycle: ServerLifecycle

    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        try check(request)
        return try await next(request, context)
    }

    func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        try check(request)
        return try next(request, context)
    }

    private func check(_ request: HTTPRequest) throws {
        // The engine checked it when it read the head; a request made in process is checked here.
        let problem =
            request.checkedFraming.map(\.problem)
            ?? Responder.framingProblem(
                contentLength: request.header(.contentLength), transferEncoding: request.header(.transferEncoding))
        if let problem {
            throw HTTPError(.badRequest, problem)
        }
        if lifecycle.isDraining {
            throw HTTPError(.unavailable, "the server is stopping; retry shortly", headers: [("Retry-After", "1")])
        }
    }
}

extension String.UTF8View {
    /// `contains(where:)` over the string's bytes in place when they are contiguous (a native
    /// string), without the view's index arithmetic per byte.
    fileprivate func containsByte(where test: (UInt8) -> Bool) -> Bool {
        if let found = withContiguousStorageIfAvailable({ $0.contains(where: test) }) { return found }
        return contains(where: test)
    }
}
