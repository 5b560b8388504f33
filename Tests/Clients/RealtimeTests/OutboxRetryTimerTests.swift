import CourierCore
import CourierTesting
import Foundation
import Realtime
import Synchronization
import Testing

/// A failed item whose retry time passes while the outbox is looking (between listing the due
/// items and arming its timer) is still retried: the timer counts items already due, not only
/// later ones. Under load that gap lasted longer than a short retry delay, and such an item
/// waited for some other answer to look again, forever when none came.
@Suite(.timeLimit(.minutes(1)))
struct OutboxRetryTimerTests {
    /// A manual clock whose wall time moves `step` on every read once `moving` is set: every
    /// look at the time inside the outbox sees it later than the look before.
    final class MovingWallClock: Clock, Sendable {
        let manual = ManualClock()
        let step: Duration
        let moving = Mutex(false)

        init(step: Duration) { self.step = step }

        var now: Date {
            let now = manual.now
            if moving.withLock({ $0 }) {
                manual.setWallTime(now.addingTimeInterval(Double(step.wholeMilliseconds) / 1000))
            }
            return now
        }

        var uptimeNanoseconds: UInt64 { manual.uptimeNanoseconds }

        func sleep(for duration: Duration) async throws { try await manual.sleep(for: duration) }
    }

    @Test func anItemThatComesDueWhileTheOutboxLooksIsRetried() async throws {
        // The retry delay the connection draws for the first failure (the same seeded jitter):
        // the wall clock moves two thirds of it at each read, so the item is not due when the
        // outbox lists the due items (one step after the failure) and is when it arms its timer
        // (two steps after).
        var jitter = JitterSource(seed: 7)
        let delay = Backoff(base: .seconds(10), cap: .seconds(10)).delay(attempt: 0, using: &jitter)
        let step = Duration.milliseconds((delay.wholeMilliseconds * 2 + 2) / 3)
        try #require(delay.wholeMilliseconds > step.wholeMilliseconds && delay <= step * 2)
        let clock = MovingWallClock(step: step)
        let responder = FakeMessengerResponder()
        let transport = FakeRealtimeTransport { responder.respond($0) }
        let store = try RealtimeStore(path: ":memory:")
        var outbox = OutboxPolicy()
        outbox.maximumAttempts = 2
        outbox.retryBase = .seconds(10)
        outbox.retryCap = .seconds(10)
        let connection = RealtimeConnection(
            transport: transport, protocol: RequestResponseProtocol(), store: store, clock: clock,
            outboxPolicy: outbox, random: JitterSource(seed: 7))
        try store.enqueue(
            destination: responder.poisonDestination,
            payload: JSONWriter.encode(["conversationId": "c1", "timestamp": 1, "messages": [["content": "x"]]]),
            clientId: "poison")
        clock.moving.withLock { $0 = true }
        await connection.start()
        // Both attempts are made with no advance of the monotonic clock: the retry is not left
        // for a timer that nothing would fire.
        #expect(await poll { (try? store.outboxItem("poison")?.state) == .failed })
        #expect(try store.outboxItem("poison")?.attempts == 2)
        await connection.stop()
    }
}
