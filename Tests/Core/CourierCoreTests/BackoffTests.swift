import CourierCore
import CourierTesting
import Testing

struct BackoffTests {
    let backoff = Backoff(base: .milliseconds(100), cap: .seconds(10))

    @Test(arguments: [
        (0, Duration.milliseconds(100)), (1, .milliseconds(200)), (3, .milliseconds(800)),
        (6, .milliseconds(6400)), (7, .seconds(10)), (70, .seconds(10)), (-1, .milliseconds(100)),
    ])
    func windowDoublesUpToTheCap(attempt: Int, window: Duration) {
        #expect(backoff.window(attempt: attempt) == window)
    }

    @Test func delayIsFullJitterWithinTheWindow() {
        var generator = SeededGenerator(state: 42)
        var lowest = Duration.seconds(100)
        var highest = Duration.zero
        for _ in 0..<2000 {
            let d = backoff.delay(attempt: 4, using: &generator)
            #expect(d >= .zero && d <= .milliseconds(1600))
            lowest = min(lowest, d)
            highest = max(highest, d)
        }
        // Full jitter uses the whole window, not just its upper half.
        #expect(lowest < .milliseconds(100))
        #expect(highest > .milliseconds(1500))
    }

    @Test func sameSeedSameDelays() {
        var a = SeededGenerator(state: 7)
        var b = SeededGenerator(state: 7)
        let first = (0..<10).map { backoff.delay(attempt: $0, using: &a) }
        let second = (0..<10).map { backoff.delay(attempt: $0, using: &b) }
        #expect(first == second)
    }
}

struct DurationWholeTests {
    @Test(arguments: [
        (Duration.milliseconds(1500), Int64(1500), Int64(1_500_000_000)),
        (.nanoseconds(999_999), 0, 999_999), (.seconds(-2), -2000, -2_000_000_000),
        (.seconds(Int64.max), Int64.max, Int64.max),
    ])
    func convertsAndSaturates(duration: Duration, milliseconds: Int64, nanoseconds: Int64) {
        #expect(duration.wholeMilliseconds == milliseconds)
        #expect(duration.wholeNanoseconds == nanoseconds)
    }
}
