/// Exponential backoff with full jitter: attempt `n` waits `random(0, min(cap, base·2ⁿ))`.
///
/// Full jitter spreads retries of many clients evenly over the window, so a recovering server is
/// not hit by synchronised waves.
public struct Backoff: Sendable {
    /// The first window.
    public var base: Duration
    /// The largest window.
    public var cap: Duration

    /// Creates a backoff policy.
    /// - Parameters:
    ///   - base: the window of the first retry (attempt 0).
    ///   - cap: the window never grows past this.
    public init(base: Duration = .seconds(1), cap: Duration = .seconds(300)) {
        self.base = base
        self.cap = cap
    }

    /// The upper bound of the window for `attempt` (0-based): `min(cap, base·2^attempt)`.
    public func window(attempt: Int) -> Duration {
        let exponent = min(max(attempt, 0), 62)
        let baseNanos = base.wholeNanoseconds
        let capNanos = cap.wholeNanoseconds
        let (scaled, overflow) = baseNanos.multipliedReportingOverflow(by: Int64(1) << exponent)
        let nanos = overflow ? capNanos : min(capNanos, scaled)
        return .nanoseconds(nanos)
    }

    /// A random delay in `0...window(attempt:)`.
    /// - Parameters:
    ///   - attempt: how many retries came before this one.
    ///   - generator: the randomness, injectable for tests.
    public func delay<G: RandomNumberGenerator>(attempt: Int, using generator: inout G) -> Duration {
        let upper = window(attempt: attempt).wholeNanoseconds
        guard upper > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...upper, using: &generator))
    }

    /// A random delay using the system generator.
    public func delay(attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(attempt: attempt, using: &generator)
    }
}
