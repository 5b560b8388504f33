import CourierCore
import CourierTesting
import Foundation
import Testing

struct ManualClockTests {
    @Test(.timeLimit(.minutes(1)))
    func sleepersWakeWhenTheirDeadlineIsReached() async throws {
        let clock = ManualClock()
        let start = clock.now
        let task = Task { try await clock.sleep(for: .seconds(30)) }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await task.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.timeIntervalSince(start) == 30)
        #expect(clock.uptimeNanoseconds == 30_000_000_000)
        #expect(clock.nowMilliseconds == Int64((start.timeIntervalSince1970 + 30) * 1000))
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ManualClockWaitingTests {
    @Test func waitForSleepersReturnsOnceTheSleepersAreRegistered() async throws {
        let clock = ManualClock()
        let first = Task { try await clock.sleep(for: .seconds(5)) }
        let second = Task { try await clock.sleep(for: .seconds(10)) }
        try await clock.waitForSleepers(2)
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(10))
        try await first.value
        try await second.value
    }

    @Test func waitForSleepersFailsAfterItsRealTimeout() async throws {
        let clock = ManualClock()
        let error = await #expect(throws: ManualClock.SleepersTimeout.self) {
            try await clock.waitForSleepers(1, timeout: .milliseconds(50))
        }
        #expect(error?.registered == 0)
    }

    @Test func aCancelledSleepStopsCountingAndThrows() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(30)) }
        try await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }
}
