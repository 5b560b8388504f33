import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Realtime
import Testing

/// The text of a text message.
func text(_ message: WebSocketMessage) -> String {
    if case .text(let text) = message { return text }
    return ""
}

/// The driver over a fake transport and a manual clock: the actions of the state machine
/// performed for real, without sockets or sleeps.
@Suite(.timeLimit(.minutes(1)))
struct RealtimeConnectionTests {
    let clock = ManualClock()
    let responder = FakeMessengerResponder()
    let transport: FakeRealtimeTransport
    let store: RealtimeStore
    let connection: RealtimeConnection

    init() throws {
        let responder = responder
        transport = FakeRealtimeTransport { responder.respond($0) }
        store = try RealtimeStore(path: ":memory:")
        var outbox = OutboxPolicy()
        outbox.maximumAttempts = 3
        connection = RealtimeConnection(
            transport: transport, protocol: RequestResponseProtocol(), store: store, clock: clock,
            outboxPolicy: outbox, random: JitterSource(seed: 42))
    }

    func payload(_ text: String) -> [UInt8] {
        JSONWriter.encode(["conversationId": "c1", "timestamp": 1, "messages": [["content": .string(text)]]])
    }

    func isLive() async -> Bool { await connection.state == .live }

    func isWaiting() async -> Bool {
        if case .waiting = await connection.state { return true }
        return false
    }

    @Test func onLiveItResumesFromTheCursorThenFlushesTheOutboxInOrder() async throws {
        try store.advanceCursor(to: 41)
        for index in 0..<5 {
            try store.enqueue(destination: "bob", payload: payload("m\(index)"), clientId: "id-\(index)")
        }
        await connection.start()
        #expect(await poll { (try? store.outbox(destination: "bob").allSatisfy { $0.state == .sent }) ?? false })
        let requests = responder.requests
        #expect(requests.first == "GET /v1/messages?after=41&limit=100")
        #expect(Array(requests.dropFirst()) == Array(repeating: "PUT /v1/messages/bob", count: 5))
        let sent = try store.outbox(destination: "bob")
        #expect(sent.map(\.clientId) == (0..<5).map { "id-\($0)" })
        #expect(sent.map(\.serverSeq) == [1, 2, 3, 4, 5])
    }

    @Test func aFailedConnectWaitsItsJitteredDelayOnTheClockThenRetries() async throws {
        transport.failNextConnects(2)
        await connection.start()
        for attempt in 1...2 {
            #expect(await poll { await isWaiting() && transport.attempts == attempt })
            guard case .waiting(_, let delay) = await connection.state else { return }
            try await clock.waitForSleepers(1)
            clock.advance(by: delay)
        }
        #expect(await poll { await isLive() })
        #expect(transport.attempts == 3)
    }

    @Test func aHalfOpenSocketIsDroppedAfterTwoMissedPongsAndReplaced() async throws {
        await connection.start()
        #expect(await poll { await isLive() })
        let first = try #require(transport.sockets.first)
        first.goHalfOpen()
        // Ping and stable timers.
        try await clock.waitForSleepers(2)
        clock.advance(by: .seconds(25))
        try await clock.waitForSleepers(2)
        clock.advance(by: .seconds(25))
        #expect(await poll { await connection.state == .live && clock.sleeperCount >= 1 })
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(25))
        #expect(await poll { await isWaiting() })
        #expect(first.isClosed)
        let pings = first.sent.filter { "\($0)".contains("keepalive") }.count
        #expect(pings == 2)
        guard case .waiting(_, let delay) = await connection.state else { return }
        try await clock.waitForSleepers(1)
        clock.advance(by: delay)
        #expect(await poll { await isLive() })
        #expect(transport.sockets.count == 2)
    }

    @Test func answeredPingsKeepTheConnectionLive() async throws {
        await connection.start()
        #expect(await poll { await isLive() })
        for _ in 0..<4 {
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(25))
            #expect(await poll { await connection.state == .live && clock.sleeperCount >= 1 })
        }
        #expect(transport.sockets.count == 1)
    }

    @Test func aPoisonItemFailsAfterItsAttemptsWithoutBlockingTheRestAndCanBeRetried() async throws {
        try store.enqueue(destination: "bob", payload: payload("before"), clientId: "before")
        try store.enqueue(destination: responder.poisonDestination, payload: payload("poison"), clientId: "poison")
        try store.enqueue(destination: "bob", payload: payload("after"), clientId: "after")
        await connection.start()
        #expect(await poll { (try? store.outboxItem("after")?.state) == .sent })
        #expect(try store.outboxItem("before")?.state == .sent)
        // Ping, stable and the retry; then (the stable timer done) ping and the retry. Each
        // advance waits until the attempt before it has failed and a turn of the connection has
        // passed: until then the outbox timer may still be the send's 10 s acknowledgement
        // deadline, which a 60 s advance would fire instead of the retry.
        for (attempt, sleepers) in [(1, 3), (2, 2)] {
            #expect(await poll { (try? store.outboxItem("poison")?.attempts) == attempt })
            _ = await connection.state
            try await clock.waitForSleepers(sleepers)
            clock.advance(by: .seconds(60))
        }
        #expect(await poll { (try? store.outboxItem("poison")?.state) == .failed })
        let poison = try #require(try store.outboxItem("poison"))
        #expect(poison.attempts == 3)
        #expect(poison.lastError == "status 404")
        #expect(responder.requests.filter { $0.hasSuffix(responder.poisonDestination) }.count == 3)
        try await connection.retry("poison")
        #expect(await poll { responder.requests.filter { $0.hasSuffix(responder.poisonDestination) }.count == 4 })
    }

    @Test func anItemWithoutAnAckInTimeIsRetriedWithTheSameClientId() async throws {
        try store.enqueue(destination: responder.silentDestination, payload: payload("x"), clientId: "same-id")
        await connection.start()
        #expect(await poll { responder.requests.contains("PUT /v1/messages/silent") })
        // Ping, stable and the ack deadline.
        try await clock.waitForSleepers(3)
        clock.advance(by: .seconds(10))
        #expect(await poll { (try? store.outboxItem("same-id")?.attempts) == 1 })
        try await clock.waitForSleepers(3)
        clock.advance(by: .seconds(2))
        #expect(await poll { responder.requests.filter { $0 == "PUT /v1/messages/silent" }.count == 2 })
        let sends = try #require(transport.sockets.first).sent.filter { "\($0)".contains("same-id") }
        #expect(sends.count == 2)
    }

    @Test func pushedItemsAreStoredOnceAndAGapFetchesFromTheCursor() async throws {
        await connection.start()
        #expect(await poll { await isLive() })
        let socket = try #require(transport.sockets.first)
        func push(_ seq: Int, id: String, requestId: Int) {
            let envelope: JSONValue = [
                "sourceAccount": "alice", "clientMessageId": .string(id), "conversationId": "c1",
                "serverSeq": .int(Int64(seq)),
            ]
            let frame: JSONValue = [
                "type": "request", "id": .int(Int64(requestId)), "verb": "PUT", "path": "/api/v1/message",
                "body": envelope,
            ]
            socket.deliver(.text(JSONWriter.string(frame)))
        }
        push(1, id: "a", requestId: 1)
        push(1, id: "a", requestId: 2)
        push(2, id: "b", requestId: 3)
        #expect(await poll { socket.sent.filter { text($0).contains(#""status":200"#) }.count == 3 })
        #expect(try store.received(conversation: "c1").map(\.id) == ["alice/a", "alice/b"])
        let resumesBefore = responder.requests.filter { $0.hasPrefix("GET /v1/messages") }.count
        push(5, id: "e", requestId: 4)
        #expect(
            await poll { responder.requests.filter { $0.hasPrefix("GET /v1/messages") }.count == resumesBefore + 1 })
    }

    @Test func theBackgroundSuspendsAndAPushOrTheForegroundReconnects() async throws {
        await connection.start()
        #expect(await poll { await isLive() })
        await connection.report(.background)
        #expect(await connection.state == .suspended)
        #expect(try #require(transport.sockets.first).isClosed)
        await connection.report(.push)
        guard case .waiting(_, let delay) = await connection.state else {
            Issue.record("a push did not lead to waiting")
            return
        }
        try await clock.waitForSleepers(1)
        clock.advance(by: delay)
        #expect(await poll { await isLive() })
        #expect(transport.sockets.count == 2)
    }

    @Test func thePathMonitorClosesOnLossAndReconnectsWhenThePathReturns() async throws {
        let monitor = ManualPathMonitor()
        let following = connection.follow(monitor)
        defer { following.cancel() }
        await connection.start()
        #expect(await poll { await isLive() })
        monitor.set(available: false)
        #expect(await poll { await connection.state == .idle })
        #expect(try #require(transport.sockets.first).isClosed)
        monitor.set(available: true)
        #expect(await poll { await isLive() })
        #expect(transport.sockets.count == 2)
    }
}
