import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

@testable import Messenger

/// Sends that fail (no server, 5xx, 429) stay queued and go again with the same client id.
@Suite(.timeLimit(.minutes(3)))
struct SendRetryTests {
    /// Alice behind a `FaultProxy`, Bob direct, a session between them already.
    static func pair(_ server: MessengerTestServer, attempts: Int = 8) async throws
        -> (FaultProxy, MessengerClient, MessengerClient)
    {
        let proxy = try FaultProxy(targetPort: server.server.port)
        var configuration = server.configuration("alice")
        configuration.serverURL = "http://127.0.0.1:\(proxy.port)"
        configuration.sendBackoff = Backoff(base: .seconds(10), cap: .seconds(10))
        configuration.maximumSendAttempts = attempts
        let alice = try await MessengerClient.register(configuration, http: server.http)
        let bob = try await server.register("bob")
        try await alice.send(text: "warm up", to: bob.credentials.accountId)
        return (proxy, alice, bob)
    }

    @Test func aSendWhileTheServerIsAwayIsDeliveredOnceAfterItReturns() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let (proxy, alice, bob) = try await Self.pair(server)
        defer { proxy.stop() }
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)

        proxy.refuse()
        proxy.cut()
        await #expect(throws: MessengerClientError.self) {
            try await alice.send(text: "survives", to: bob.credentials.accountId)
        }
        let pending = try #require(try await alice.messages(in: conversation).last)
        #expect(pending.body == "survives" && pending.state == .sending)

        proxy.refuse(false)
        server.clientClock.advance(by: .seconds(10))
        let sent = try await alice.retryPendingSends()
        #expect(sent.map(\.clientId) == [pending.clientId], "the same client id")
        #expect(sent.first?.state == .sent)
        #expect(try await alice.retryPendingSends().isEmpty, "off the queue")
        #expect(try await bob.sync().bodies == ["warm up", "survives"])
        #expect(try await bob.sync().isEmpty)
    }

    @Test func sendsFromAnotherProcessThatFoundNoServerAreSentOnceByThisOne() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        try await alice.send(text: "first", to: bob.credentials.accountId)
        try await alice.createGroup("g", members: [bob.credentials.accountId], mode: .senderKeys)

        // The same device opened by a process whose server address refuses connections.
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        var offline = server.configuration("alice")
        offline.serverURL = down.url
        let cut = try MessengerClient.open(offline, http: HTTPClient(timeout: .seconds(5)))
        await #expect(throws: MessengerClientError.self) {
            try await cut.send(text: "while offline", to: bob.credentials.accountId)
        }
        await #expect(throws: MessengerClientError.self) { try await cut.send(text: "group offline", toGroup: "g") }
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        #expect(try await alice.messages(in: conversation).map(\.state) == [.sent, .sending])

        server.clientClock.advance(by: .seconds(600))
        #expect(try await alice.retryPendingSends().map(\.body) == ["while offline", "group offline"])
        #expect(try await alice.retryPendingSends().isEmpty)
        #expect(try await alice.messages(in: conversation).map(\.state) == [.sent, .sent])
        #expect(try await bob.sync().bodies == ["first", "while offline", "group offline"])
    }

    @Test func aSendWhoseAnswerWasLostIsStoredOnceByTheServer() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let (proxy, alice, bob) = try await Self.pair(server)
        defer { proxy.stop() }
        let first = try await alice.send(text: "answer lost", to: bob.credentials.accountId)
        // As if the server's 200 had never arrived: the row is still sending and queued.
        try alice.storage.transaction { _, _, db in
            try db.run(
                "UPDATE messenger_messages SET state = 'sending', server_seq = NULL WHERE client_id = ?",
                [.text(first.clientId)])
            try SendQueue.enqueue(
                clientId: first.clientId, conversationId: first.conversationId, now: 0, db: db)
        }
        let again = try await alice.retryPendingSends()
        #expect(again.first?.serverSeq == first.serverSeq, "the server placed the second copy where the first was")
        #expect(try await bob.sync().bodies == ["warm up", "answer lost"], "delivered once, never twice")
    }

    @Test func aSendThatKeepsFailingIsFailedAndRetriedByTheUser() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let (proxy, alice, bob) = try await Self.pair(server, attempts: 3)
        defer { proxy.stop() }
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        proxy.refuse()
        proxy.cut()
        await #expect(throws: MessengerClientError.self) {
            try await alice.send(text: "gives up", to: bob.credentials.accountId)
        }
        for _ in 0..<2 {
            server.clientClock.advance(by: .seconds(10))
            #expect(try await alice.retryPendingSends().isEmpty)
        }
        let failed = try #require(try await alice.messages(in: conversation).last)
        #expect(failed.state == .failed, "three attempts, then failed")
        server.clientClock.advance(by: .seconds(60))
        proxy.refuse(false)
        #expect(try await alice.retryPendingSends().isEmpty, "a failed message waits for the user")

        let retried = try await alice.retry(clientId: failed.clientId)
        #expect(retried.state == .sent && retried.clientId == failed.clientId)
        await #expect(throws: MessengerClientError.self) { try await alice.retry(clientId: failed.clientId) }
        #expect(try await bob.sync().bodies == ["warm up", "gives up"])
    }

    @Test func a429IsRetriedNoSoonerThanItsRetryAfter() async throws {
        // One send in a burst of two, then a token every 100 s of the server's clock.
        let server = try MessengerTestServer { $0.sendRate = RateLimit(perSecond: 0.01, burst: 2) }
        defer { server.finish() }
        var configuration = server.configuration("alice")
        configuration.sendBackoff = Backoff(base: .seconds(10), cap: .seconds(10))
        let alice = try await MessengerClient.register(configuration, http: server.http)
        let bob = try await server.register("bob")
        try await alice.send(text: "one", to: bob.credentials.accountId)
        try await alice.send(text: "two", to: bob.credentials.accountId)
        await #expect {
            try await alice.send(text: "three", to: bob.credentials.accountId)
        } throws: { error in
            let failure = error as? MessengerClientError
            return failure?.status == 429 && (failure?.retryAfter ?? .zero) >= .seconds(90)
        }

        server.clientClock.advance(by: .seconds(10))
        #expect(try await alice.retryPendingSends().isEmpty, "the backoff passed, the Retry-After did not")
        let three = try #require(
            try await alice.messages(
                in: MessengerClient.conversationId(
                    alice.credentials.accountId, bob.credentials.accountId)
            ).last)
        #expect(try alice.storage.read { try SendQueue.attempts(clientId: three.clientId, db: $0) } == 1, "not tried")
        server.serverClock.advance(by: .seconds(100))
        server.clientClock.advance(by: .seconds(100))
        #expect(try await alice.retryPendingSends().map(\.body) == ["three"])
        #expect(try await bob.sync().bodies == ["one", "two", "three"])
    }
}
