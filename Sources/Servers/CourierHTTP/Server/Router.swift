/// A handler: called on one of the server's worker threads, it must be thread-safe. What it
/// throws is answered with the error's own response when it is an `HTTPResponseError`, and with
/// `500 internal_error` otherwise.
public typealias HTTPHandler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// An asynchronous handler: it may await (a commit, another service) without holding a thread,
/// and gets the request's context (id, route). What it throws is answered as for `HTTPHandler`.
public typealias AsyncHTTPHandler = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

/// A route's answer when it is in memory (`Router.add(_:_:crossOrigin:fromMemory:_:)`), taken on
/// the engine's loop without waiting; `nil` when it is not, and the route's handler then runs as a
/// task. It sees the request as it arrived (its path parameters set), before any middleware; what
/// it throws is answered as a handler's error is.
public typealias MemoryAnswer = @Sendable (HTTPRequest) throws -> HTTPResponse?

/// Which browser origins may call a route (CORS). Routes allow none unless they say so: a route
/// that takes a bearer token or a cookie must never be callable from any web page.
public enum CrossOriginPolicy: Sendable, Equatable {
    /// No CORS headers; a browser's preflight is refused.
    case none
    /// Any origin, without credentials (`Access-Control-Allow-Origin: *`), as public ingest
    /// endpoints such as Segment's need.
    case anyOrigin
}

/// Routes by method and path pattern; `{name}` segments capture a path parameter.
///
/// Built (mutably) before the server starts; the server then works from an immutable copy.
/// Routes may be added in groups that share a path prefix and middleware (`group(_:middleware:_:)`).
public struct Router: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// The result of matching a request.
    enum Match: Sendable {
        case found(Route, [String: String])
        case methodNotAllowed([HTTPMethod])
        case notFound
    }

    var routes: [Route] = []
    /// What `group(_:middleware:_:)` gives the routes added through this router: a path prefix
    /// and middleware, outermost first. Empty for a top-level router.
    var prefix: [Segment] = []
    var middleware: [any HTTPMiddleware] = []

    /// Creates an empty router.
    public init() {}

    /// Every route's method and pattern (`{name}` for a parameter), in the order they were added:
    /// for checks that hold the routes against a description of them, such as an OpenAPI document.
    package var routeTable: [(method: String, pattern: String)] {
        routes.map { ($0.method.rawValue, Self.pattern($0.segments)) }
    }

    /// Adds a route answered by a synchronous handler.
    /// - Parameters:
    ///   - method: the HTTP method, such as `POST`.
    ///   - pattern: a path such as `/v1/projects/{writeKey}/settings`.
    ///   - crossOrigin: which web pages may call it; none by default.
    ///   - execution: `.onLoop` for a route that never makes a thread wait (see `RouteExecution`);
    ///     `.task` by default.
    ///   - handler: what answers it.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, crossOrigin: CrossOriginPolicy = .none,
        execution: RouteExecution = .task, _ handler: @escaping HTTPHandler
    ) {
        add(
            method, pattern, crossOrigin: crossOrigin, body: .whole, execution: execution, webSocket: nil,
            synchronousHandler: handler
        ) { request, _ in try handler(request) }
    }

    /// Adds a route answered on the engine's loop when `fromMemory` has its answer (a cache hit),
    /// and by `handler` as a task otherwise (a miss that reads a store): the cache hits, which are
    /// nearly all of a polled route's requests, pay no hand-off to a thread and back.
    ///
    /// ```swift
    /// router.add("GET", "/v1/flags/{envKey}", fromMemory: { request in
    ///     cache.answer(for: request)   // nil when the environment is not cached
    /// }) { request in try definitions(request) }
    /// ```
    /// - Parameters:
    ///   - method: the HTTP method, such as `GET`.
    ///   - pattern: a path such as `/v1/projects/{writeKey}/settings`.
    ///   - crossOrigin: which web pages may call it; none by default.
    ///   - fromMemory: the answer when it can be given without waiting, else `nil`. It must never
    ///     wait (no store read, no lock held long); it runs before the route's middleware, which
    ///     then run around its answer as around a handler's, so it must depend only on the request
    ///     as it arrived. The route runs as a task when a middleware around it can wait.
    ///   - handler: what answers when `fromMemory` gives `nil`.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, crossOrigin: CrossOriginPolicy = .none,
        fromMemory: @escaping MemoryAnswer, _ handler: @escaping HTTPHandler
    ) {
        add(method, pattern, crossOrigin: crossOrigin, execution: .task, handler)
        routes[routes.count - 1].memoryAnswer = fromMemory
    }

    /// Adds a route answered by an asynchronous handler.
    ///
    /// ```swift
    /// router.add("POST", "/v1/batch", crossOrigin: .anyOrigin) { request, context in
    ///     try await collector.ingest(request)
    /// }
    /// ```
    /// - Parameters:
    ///   - method: the HTTP method, such as `POST`.
    ///   - pattern: a path such as `/v1/projects/{writeKey}/settings`.
    ///   - crossOrigin: which web pages may call it; none by default.
    ///   - body: `.stream` runs the handler before the body has arrived and gives it as
    ///     `request.bodyStream`; `.whole` (the default) reads it into `request.body` first.
    ///   - execution: `.onLoop` for a route that never makes a thread wait (see `RouteExecution`);
    ///     `.task` by default. A route with a streamed body always runs as a task.
    ///   - handler: what answers it.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, crossOrigin: CrossOriginPolicy = .none,
        body: RequestBodyMode = .whole, execution: RouteExecution = .task, _ handler: @escaping AsyncHTTPHandler
    ) {
        add(method, pattern, crossOrigin: crossOrigin, body: body, execution: execution, webSocket: nil, handler)
    }

    mutating func add(
        _ method: HTTPMethod, _ pattern: String, crossOrigin: CrossOriginPolicy, body: RequestBodyMode,
        execution: RouteExecution = .task, webSocket: WebSocketRoute?, synchronousHandler: HTTPHandler? = nil,
        _ handler: @escaping AsyncHTTPHandler
    ) {
        let segments = prefix + Self.segments(pattern)
        // A top-level route keeps its pattern as written: it names the route in metrics and logs.
        let fullPattern = prefix.isEmpty ? pattern : Self.pattern(segments)
        routes.append(
            Route(
                method: method, pattern: fullPattern, segments: segments, crossOrigin: crossOrigin, body: body,
                execution: body == .stream ? .task : execution, middleware: middleware, handler: handler,
                synchronousHandler: synchronousHandler, webSocket: webSocket, literalPath: Self.literalPath(segments)))
    }

    /// The one path `segments` match when none is a parameter (`/` for none at all).
    static func literalPath(_ segments: [Segment]) -> String? {
        let hasParameter = segments.contains { if case .parameter = $0 { true } else { false } }
        return hasParameter ? nil : pattern(segments)
    }

    static func segments(_ pattern: String) -> [Segment] {
        pattern.split(separator: "/").map { part -> Segment in
            if part.hasPrefix("{"), part.hasSuffix("}") { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(String(part))
        }
    }

    static func pattern(_ segments: [Segment]) -> String {
        "/"
            + segments.map { segment in
                switch segment {
                case .literal(let literal): literal
                case .parameter(let name): "{\(name)}"
                }
            }.joined(separator: "/")
    }

    func match(method: HTTPMethod, path: String) -> Match {
        // A path written as its segments joined by single slashes (nearly all) is compared whole
        // with a literal route's path; it is split only for a route with parameters, or when it
        // has an empty segment (`/a//b/` matches `/a/b`).
        let plain = Self.isPlain(path)
        var split: [Substring]?
        var allowed: [HTTPMethod] = []
        for route in routes {
            var parameters: [String: String] = [:]
            if plain, let literal = route.literalPath {
                guard literal == path else { continue }
            } else {
                let parts = split ?? path.split(separator: "/")
                split = parts
                guard route.segments.count == parts.count else { continue }
                var matches = true
                for (segment, part) in zip(route.segments, parts) {
                    switch segment {
                    case .literal(let literal):
                        if literal != part { matches = false }
                    case .parameter(let name):
                        parameters[name] = String(part)
                    }
                    if !matches { break }
                }
                guard matches else { continue }
            }
            if route.method == method || (method == .head && route.method == .get) {
                return .found(route, parameters)
            }
            allowed.append(route.method)
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
    }

    /// Whether `path` starts with a slash and has no empty segment (`//`, or a trailing slash
    /// after a segment): then it is exactly the literal path of the routes it matches.
    static func isPlain(_ path: String) -> Bool {
        var previous: UInt8 = 0
        var count = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/") { return false }
            if count == 0 && byte != UInt8(ascii: "/") { return false }
            previous = byte
            count += 1
        }
        return count == 1 || (count > 1 && previous != UInt8(ascii: "/"))
    }
}
