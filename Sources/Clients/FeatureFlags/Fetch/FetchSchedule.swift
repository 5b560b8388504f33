import CourierCore

/// When the next fetch may go out: a minimum interval after a success, full-jitter backoff after
/// failures. Pure: callers feed it monotonic times and outcomes, tests need no clock.
public struct FetchSchedule: Sendable {
    /// What the schedule allows now.
    public enum Decision: Sendable, Equatable {
        /// Send the request.
        case fetch
        /// The last success is more recent than the minimum interval; wait until then.
        case throttled(untilNanoseconds: UInt64)
        /// A failure's backoff is running; wait until then.
        case backingOff(untilNanoseconds: UInt64)
    }

    /// Fetches closer together than this are skipped (unless forced).
    public let minimumInterval: Duration
    /// The backoff after failures.
    public let backoff: Backoff
    /// Failures since the last success.
    public private(set) var consecutiveFailures = 0
    private var lastSuccess: UInt64?
    private var retryNotBefore: UInt64 = 0

    /// Creates a schedule.
    public init(minimumInterval: Duration, backoff: Backoff) {
        self.minimumInterval = minimumInterval
        self.backoff = backoff
    }

    /// Whether to fetch at `now` (monotonic nanoseconds); `force` skips the minimum interval but
    /// not a running backoff.
    public func decide(now: UInt64, force: Bool = false) -> Decision {
        if now < retryNotBefore { return .backingOff(untilNanoseconds: retryNotBefore) }
        if !force, let lastSuccess {
            let next = lastSuccess &+ UInt64(max(minimumInterval.wholeNanoseconds, 0))
            if now < next { return .throttled(untilNanoseconds: next) }
        }
        return .fetch
    }

    /// Records an answer (200 or 304).
    public mutating func recordSuccess(now: UInt64) {
        lastSuccess = now
        consecutiveFailures = 0
        retryNotBefore = 0
    }

    /// Records a failure; the next fetch waits a random delay within the backoff window.
    /// - Returns: the delay chosen.
    @discardableResult
    public mutating func recordFailure<G: RandomNumberGenerator>(now: UInt64, using generator: inout G) -> Duration {
        let delay = backoff.delay(attempt: consecutiveFailures, using: &generator)
        consecutiveFailures += 1
        retryNotBefore = now &+ UInt64(max(delay.wholeNanoseconds, 0))
        return delay
    }
}
