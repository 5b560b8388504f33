import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Realtime
import Testing

@testable import Messenger

/// The delivery socket kept open by Realtime's connection state machine, against the real
/// server behind a `FaultProxy`.
@Suite(.timeLimit(.minutes(3)))
struct DeliveryConnectionTests {
    /// Waits for `condition` with a real-time deadline (the connection's work runs on its own tasks).
    func reached(_ what: String, _ condition: () async -> Bool) async throws {
        guard await poll(every: .milliseconds(5), timeout: .seconds(20), condition) else {
            throw NotReached(what: what)
        }
    }

    @Test func aDroppedSocketReconnectsAfterTheBackoffAndCatchesUpWhatCameMeanwhile() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let proxy = try FaultProxy(targetPort: server.server.port)
        defer { proxy.stop() }
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let transport = WebSocketTransport(client: sockets, url: "ws://127.0.0.1:\(proxy.port)/v1/websocket") {
            [bob] in [bob.authorizationHeader]
        }
        var policy = ConnectionPolicy()
        policy.backoff = Backoff(base: .seconds(1), cap: .seconds(1))
        let connection = await bob.connect(transport: transport, policy: policy)
        var events = connection.events.makeAsyncIterator()
        try await reached("live") { await connection.state == .live }

        try await alice.send(text: "before the drop", to: bob.credentials.accountId)
        #expect(await events.next()?.body == "before the drop")

        // The socket breaks and new connections are refused: the machine waits, tries, waits again.
        proxy.refuse()
        proxy.cut()
        try await reached("waiting") { if case .waiting = await connection.state { true } else { false } }
        try await alice.send(text: "while away", to: bob.credentials.accountId)
        try await server.clientClock.waitForSleepers(1)
        server.clientClock.advance(by: .seconds(1))
        try await reached("failed again") {
            if case .waiting(let attempt, _) = await connection.state { attempt >= 1 } else { false }
        }
        #expect(await connection.openedCount == 1)

        proxy.refuse(false)
        try await server.clientClock.waitForSleepers(1)
        server.clientClock.advance(by: .seconds(1))
        #expect(await events.next()?.body == "while away", "caught up once live again")
        #expect(await connection.openedCount == 2)
        try await alice.send(text: "after", to: bob.credentials.accountId)
        #expect(await events.next()?.body == "after")
        await connection.stop()
        #expect(await events.next() == nil)
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        #expect(try await bob.messages(in: conversation).map(\.body) == ["before the drop", "while away", "after"])
    }

    /// What waited on the server is reported in the order it was sent, although the catch-up
    /// over HTTP and the socket both deliver it: the two used to run at once, and a message the
    /// socket stored first could be reported after a later one the catch-up stored.
    @Test func messagesThatWaitedArriveInTheOrderSentWhenTheConnectionOpens() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let texts = (1...30).map { "waiting \($0)" }
        for text in texts { try await alice.send(text: text, to: bob.credentials.accountId) }
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let transport = WebSocketTransport(client: sockets, url: bob.deliverySocketURL) { [bob] in
            [bob.authorizationHeader]
        }
        let connection = await bob.connect(transport: transport)
        var received: [String] = []
        for await event in connection.events {
            if let body = event.body { received.append(body) }
            if received.count == texts.count { break }
        }
        await connection.stop()
        #expect(received == texts)
    }

    @Test func theBackgroundClosesTheSocketAndAPushReconnectsAndCatchesUp() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let transport = WebSocketTransport(client: sockets, url: bob.deliverySocketURL) { [bob] in
            [bob.authorizationHeader]
        }
        var policy = ConnectionPolicy()
        policy.backoff = Backoff(base: .seconds(1), cap: .seconds(1))
        let connection = await bob.connect(transport: transport, policy: policy)
        var events = connection.events.makeAsyncIterator()
        try await reached("live") { await connection.state == .live }

        await connection.enteredBackground()
        #expect(await connection.state == .suspended)
        try await alice.send(text: "while suspended", to: bob.credentials.accountId)
        await connection.pushArrived()
        try await server.clientClock.waitForSleepers(1)
        server.clientClock.advance(by: .seconds(1))
        #expect(await events.next()?.body == "while suspended")
        #expect(await connection.openedCount == 2)
        await connection.stop()
    }

    /// What the socket delivers while the connection stops is either processed and in `events`
    /// before they finish, or not processed at all and left on the server for the next catch-up:
    /// never stored and acknowledged with nobody told (a chat that went offline lost the line).
    @Test func envelopesArrivingAsTheConnectionStopsAreShownOrLeftOnTheServer() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        try await alice.send(text: "one", to: bob.credentials.accountId)
        try await alice.send(text: "two", to: bob.credentials.accountId)
        let pending = try await HTTPClient(timeout: .seconds(20)).send(
            "GET", server.baseURL + "/v1/messages", headers: [bob.authorizationHeader.0: bob.authorizationHeader.1])
        let envelopes = try #require(pending.json?["messages"]?.arrayValue)
        #expect(envelopes.count == 2)

        let transport = FakeRealtimeTransport()
        let connection = await bob.connect(transport: transport)
        try await reached("live") { await connection.state == .live }
        let socket = try #require(transport.sockets.first)
        for (index, entry) in envelopes.enumerated() {
            let envelope = try #require(entry["envelope"])
            socket.deliver(
                .text(
                    String(
                        decoding: JSONWriter.encode([
                            "type": "request", "id": .int(Int64(index + 1)), "verb": "PUT", "path": "/api/v1/message",
                            "body": envelope,
                        ]), as: UTF8.self)))
        }
        await connection.stop()
        var shown: [String] = []
        for await event in connection.events { if let body = event.body { shown.append(body) } }

        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        let stored = try await bob.messages(in: conversation).map(\.body)
        #expect(stored == shown, "every stored message was shown")
        // The rest is still on the server: a catch-up brings it, each message once.
        let caughtUp = try await bob.sync().compactMap(\.body)
        #expect(shown + caughtUp == ["one", "two"])
    }
}

struct NotReached: Error {
    let what: String
}

extension IncomingEvent {
    var body: String? {
        if case .message(let message) = self { return message.body }
        return nil
    }
}
