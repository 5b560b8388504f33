import CourierCore
import FeatureFlags
import Testing

/// The fetch schedule as a pure state machine: minimum interval, full-jitter backoff.
struct FetchScheduleTests {
    /// Always picks the top of the window, so delays are predictable.
    struct Highest: RandomNumberGenerator {
        mutating func next() -> UInt64 { .max }
    }

    let second: UInt64 = 1_000_000_000

    @Test func minimumIntervalThrottlesUnlessForced() {
        var schedule = FetchSchedule(minimumInterval: .seconds(300), backoff: Backoff(base: .seconds(1)))
        #expect(schedule.decide(now: 0) == .fetch)
        schedule.recordSuccess(now: 10 * second)
        #expect(schedule.decide(now: 100 * second) == .throttled(untilNanoseconds: 310 * second))
        #expect(schedule.decide(now: 100 * second, force: true) == .fetch)
        #expect(schedule.decide(now: 310 * second) == .fetch)
    }

    @Test func failuresBackOffWithinGrowingWindowsEvenWhenForced() {
        var schedule = FetchSchedule(
            minimumInterval: .seconds(300), backoff: Backoff(base: .seconds(2), cap: .seconds(10)))
        var random = Highest()
        let delays = (0..<4).map { _ in schedule.recordFailure(now: 0, using: &random) }
        #expect(delays.allSatisfy { $0 <= .seconds(10) })
        #expect(delays.first! <= .seconds(2))
        #expect(schedule.consecutiveFailures == 4)
        if case .backingOff = schedule.decide(now: 0, force: true) {
        } else {
            Issue.record("a forced fetch waits for backoff")
        }
        #expect(schedule.decide(now: 11 * second) == .fetch)
        schedule.recordSuccess(now: 11 * second)
        #expect(schedule.consecutiveFailures == 0)
    }
}
