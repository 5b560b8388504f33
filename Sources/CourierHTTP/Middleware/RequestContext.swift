/// What the server knows about a request beside the request itself: its id, the route that
/// matched, when it started. Middleware may read it and pass a changed copy on.
public struct RequestContext: Sendable {
    /// An id for logs and the `X-Request-Id` answer header: the client's own when it sent a
    /// well-formed one, else a new one.
    public var requestID: String
    /// The pattern of the route that matched (`/v1/projects/{writeKey}/settings`), or `nil` when
    /// none did (the answer is then 404 or 405).
    public internal(set) var route: String?
    /// Which browser origins the matched route admits.
    public internal(set) var crossOrigin: CrossOriginPolicy
    /// Monotonic time (nanoseconds) when the request arrived.
    public let startedAt: UInt64
    /// Whether the body was over the limit and not read (the endpoint answers 413).
    let bodyTooLarge: Bool

    init(requestID: String, route: String?, crossOrigin: CrossOriginPolicy, startedAt: UInt64, bodyTooLarge: Bool) {
        self.requestID = requestID
        self.route = route
        self.crossOrigin = crossOrigin
        self.startedAt = startedAt
        self.bodyTooLarge = bodyTooLarge
    }
}
