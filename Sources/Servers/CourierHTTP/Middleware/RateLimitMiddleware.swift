/// Refuses requests over a token-bucket rate with `429 rate_limited` and `Retry-After`, keyed by
/// what `key` picks (by default the client's address, or its `/64` for IPv6: `HTTPRequest.clientNetwork`).
///
/// ```swift
/// let perClient = RateLimitMiddleware(RateLimiter(perSecond: 100, burst: 200, clock: SystemClock()))
/// let perToken = RateLimitMiddleware(limiter) { request, _ in request.bearerToken }
/// ```
public struct RateLimitMiddleware: SynchronousHTTPMiddleware {
    let limiter: RateLimiter
    let key: @Sendable (HTTPRequest, RequestContext) -> String?

    /// Creates the middleware.
    /// - Parameters:
    ///   - limiter: the buckets.
    ///   - key: the bucket of a request; `nil` lets the request through unlimited.
    public init(
        _ limiter: RateLimiter,
        key: @escaping @Sendable (HTTPRequest, RequestContext) -> String? = { request, _ in request.clientNetwork }
    ) {
        self.limiter = limiter
        self.key = key
    }

    /// Spends a token of the request's bucket, or refuses it.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws
        -> HTTPResponse
    {
        try spend(request, context: context)
        return try await next(request, context)
    }

    /// Spends a token of the request's bucket, or refuses it, without waiting.
    public func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        try spend(request, context: context)
        return try next(request, context)
    }

    private func spend(_ request: HTTPRequest, context: RequestContext) throws {
        if let bucket = key(request, context), case .limited(let seconds) = limiter.take(bucket) {
            throw HTTPError(.rateLimited, "too many requests; retry later", headers: [("Retry-After", String(seconds))])
        }
    }
}
