/// What the server knows about a request beside the request itself: its id, the route that
/// matched, when it started. Middleware may read it and pass a changed copy on.
public struct RequestContext: Sendable {
    /// An id for logs and the `X-Request-Id` answer header: the client's own when it sent a
    /// well-formed one, else a new one.
    public var requestID: String
    /// Monotonic time (nanoseconds) when the request arrived.
    public let startedAt: UInt64
    /// The router's answer for this request, found once, before the chain runs.
    let match: Router.Match
    /// Whether the body was over the limit and not read (the endpoint answers 413).
    let bodyTooLarge: Bool
    /// Whether the engine has upgraded this request's connection to a WebSocket: a WebSocket
    /// route answers 101 to let its handler run, and 426 to a plain request.
    var isWebSocketUpgrade = false
    /// The metrics series of the matched route, found when the server started, when the request's
    /// method is the route's own (`ObservationMiddleware` records into it without a lookup).
    var metricsSeries: HTTPMetrics.SeriesBox?
    /// What a route's `MemoryAnswer` gave, for the innermost step of its chain on the loop.
    var memoryAnswer: Result<HTTPResponse, any Error>?
    /// Set by a middleware that puts a credential on the request for a caller it has already
    /// authenticated by other means, under a budget of its own (the console's session standing
    /// for the admin token): `AdminAuthMiddleware` then spends no guess budget on the request and
    /// does not refuse it for someone else's guesses from the same network. Clients cannot set it,
    /// nor can middleware outside this package.
    package var credentialFromSession = false

    init(requestID: String, match: Router.Match, startedAt: UInt64, bodyTooLarge: Bool) {
        self.requestID = requestID
        self.match = match
        self.startedAt = startedAt
        self.bodyTooLarge = bodyTooLarge
    }

    /// The pattern of the route that matched (`/v1/projects/{writeKey}/settings`), or `nil` when
    /// none did (the answer is then 404 or 405).
    public var route: String? {
        if case .found(let route, _) = match { return route.pattern }
        return nil
    }

    /// Which browser origins the matched route admits.
    public var crossOrigin: CrossOriginPolicy {
        if case .found(let route, _) = match { return route.crossOrigin }
        return .none
    }
}
