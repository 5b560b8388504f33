import CourierCore
import CourierTesting
import Foundation
import Realtime
import Testing

/// An outbox whose store cannot be read when the connection goes live (its table is away: a
/// store that fails every query) looks again after `retryBase`, and sends its items once the
/// store answers. Before, when the query for the next attempt failed too, no timer was armed and
/// the items waited for some other event, forever when none came.
@Suite(.timeLimit(.minutes(1)))
struct OutboxStoreFailureTests {
    @Test func anOutboxWhoseStoreFailedLooksAgainAfterTheRetryBase() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("realtime.sqlite").path
        let clock = ManualClock()
        let responder = FakeMessengerResponder()
        let transport = FakeRealtimeTransport { responder.respond($0) }
        let store = try RealtimeStore(path: path)
        var outbox = OutboxPolicy()
        outbox.retryBase = .seconds(1)
        let connection = RealtimeConnection(
            transport: transport, protocol: RequestResponseProtocol(), store: store, clock: clock,
            outboxPolicy: outbox, random: JitterSource(seed: 42))
        try store.enqueue(
            destination: "bob",
            payload: JSONWriter.encode(["conversationId": "c1", "timestamp": 1, "messages": [["content": "x"]]]),
            clientId: "held")
        // Another connection moves the table away: every outbox query now fails.
        let other = try Database(path: path)
        try other.execute("ALTER TABLE outbox RENAME TO outbox_away")
        await connection.start()
        // The ping and stable timers, and the outbox's look again.
        try await clock.waitForSleepers(3, timeout: .seconds(20))
        #expect((try? store.outboxItem("held")) == nil)
        try other.execute("ALTER TABLE outbox_away RENAME TO outbox")
        clock.advance(by: outbox.retryBase)
        #expect(await poll { (try? store.outboxItem("held")?.state) == .sent })
        await connection.stop()
    }
}
