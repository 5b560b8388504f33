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
        while clock.sleeperCount == 0 { await Task.yield() }
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
