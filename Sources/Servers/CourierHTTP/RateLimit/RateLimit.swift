import CourierCore

/// A token-bucket rate: `perSecond` sustained, `burst` at once.
public struct RateLimit: Sendable, Equatable {
    /// Requests regained per second.
    public var perSecond: Double
    /// Requests allowed at once.
    public var burst: Double

    /// Creates a rate.
    public init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
    }
}

extension RateLimiter {
    /// A limiter for `rate`.
    public convenience init(_ rate: RateLimit, clock: any Clock) {
        self.init(perSecond: rate.perSecond, burst: rate.burst, clock: clock)
    }
}
