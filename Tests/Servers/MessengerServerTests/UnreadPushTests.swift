import CourierHTTP
import CourierTesting
import Testing

@testable import MessengerServer

/// The push for what a delivery socket left unread when it ended (`announceUnread`): after the
/// grace, unless the device is back, has read everything, or the server is stopping.
@Suite struct UnreadPushTests {
    /// Bob with a webhook push endpoint, Alice to send to him, a WebSocket client, and a server
    /// whose unacknowledged-push delay is 10 s and whose grace is `grace` ms, both on its manual
    /// clock.
    struct Fixture {
        let receiver: WebhookReceiver
        let harness: MessengerHarness
        let alice: TestDevice
        let bob: TestDevice
        let client: WebSocketClient

        init(_ backend: StoreBackend = .sqlite, grace: Int64 = 2_000) async throws {
            (receiver, harness, alice, bob) = try await PushTests.bobWithAWebhook(backend, unreadPushGrace: grace)
            client = try WebSocketClient()
        }

        func stop() {
            receiver.stop()
            harness.stop()
            inBackground { [client] in client.shutdown() }
        }

        /// Bob's socket, its "queue empty" marker read.
        func connectBob() async throws -> DeliveryReader { try await harness.connectEmpty(bob, client: client) }

        /// Alice sends `content` to Bob's device; it is read on `reader` and not acknowledged.
        func deliver(_ content: String, on reader: inout DeliveryReader) async throws {
            _ = try await harness.send(
                from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: content)
            #expect(await reader.next()?.envelopeContent == "\(content) for 1")
        }

        func metric(_ line: String) -> Bool { harness.messenger.metricsText().contains(line) }

        /// Waits until `count` sockets have ended and been looked at.
        func socketsEnded(_ count: Int) async -> Bool {
            await poll { metric("courier_messenger_sockets_ended_total \(count)") }
        }
    }

    /// A socket that ends with an envelope it was sent and did not acknowledge pushes its device
    /// after the 2 s grace, not after the unacknowledged-push delay (10 s, never reached here);
    /// one whose device acknowledged everything does not.
    @Test(arguments: StoreBackend.allCases) func aSocketThatEndsWithAnEnvelopeUnacknowledgedPushesAfterTheGrace(
        backend: StoreBackend
    ) async throws {
        let fixture = try await Fixture(backend)
        defer { fixture.stop() }
        // Everything acknowledged: the socket ends with no push.
        var first = try await fixture.connectBob()
        _ = try await fixture.harness.send(
            from: fixture.alice, to: fixture.bob.accountId, devices: [(1, fixture.bob.registrationId)], content: "a")
        try await DeliverySocketTests.ack(await first.next(), on: first.socket)
        first.socket.outbound.close()
        #expect(await fixture.socketsEnded(1))
        #expect(fixture.metric("courier_messenger_sockets_ended_unread_total 0"))
        #expect(fixture.receiver.received == 0)

        // Sent and not acknowledged: a push once the grace is over.
        var second = try await fixture.connectBob()
        try await fixture.deliver("b", on: &second)
        second.socket.outbound.close()
        // Both sockets' unacknowledged watches (10 s each) and the grace sleep on the clock.
        try await fixture.harness.clock.waitForSleepers(3)
        #expect(fixture.receiver.received == 0)
        fixture.harness.clock.advance(by: .seconds(2))
        #expect(await poll { fixture.receiver.received == 1 })
        #expect(fixture.metric("courier_messenger_sockets_ended_unread_total 1"))
    }

    /// A device that connects again within the grace gets what its last socket left on the new
    /// socket, and no push: not while the new socket is live, nor after it has acknowledged
    /// everything and ended too, still within the first socket's grace.
    @Test func aDeviceThatConnectsAgainWithinTheGraceIsNotPushed() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        var first = try await fixture.connectBob()
        try await fixture.deliver("d", on: &first)
        first.socket.outbound.close()
        // The first socket's unacknowledged watch and its grace sleep on the clock.
        try await fixture.harness.clock.waitForSleepers(2)

        var second = DeliveryReader(try await fixture.harness.connect(fixture.bob, client: fixture.client))
        let again = await second.next()
        #expect(again?.envelopeContent == "d for 1")
        try await DeliverySocketTests.ack(again, on: second.socket)
        second.socket.outbound.close()
        // The second socket left nothing unread: its check ends at once.
        #expect(await fixture.socketsEnded(1))
        fixture.harness.clock.advance(by: .seconds(2))
        #expect(await fixture.socketsEnded(2))
        #expect(fixture.metric("courier_messenger_sockets_ended_unread_total 0"))
        #expect(fixture.receiver.received == 0)
    }

    /// A socket that ended within its grace when the server shuts down pushes nothing after it.
    @Test func noPushGoesOutAfterShutdown() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        var reader = try await fixture.connectBob()
        try await fixture.deliver("e", on: &reader)
        reader.socket.outbound.close()
        // The unacknowledged watch and the grace sleep on the clock.
        try await fixture.harness.clock.waitForSleepers(2)
        fixture.harness.messenger.shutdown()
        fixture.harness.clock.advance(by: .seconds(2))
        #expect(await fixture.socketsEnded(1))
        #expect(fixture.metric("courier_messenger_sockets_ended_unread_total 0"))
        #expect(fixture.receiver.received == 0)
    }

    /// A socket this server closes because it stops leaves its unacknowledged envelope to the
    /// device's next connection, here or on another instance: no push.
    @Test func aSocketClosedBecauseTheServerStopsPushesNothing() async throws {
        let fixture = try await Fixture(grace: 0)
        defer { fixture.stop() }
        var reader = try await fixture.connectBob()
        try await fixture.deliver("c", on: &reader)
        fixture.harness.stop()
        #expect(await reader.socket.closed() == .serverStopping)
        #expect(await fixture.socketsEnded(1))
        #expect(fixture.metric("courier_messenger_sockets_ended_unread_total 0"))
        #expect(fixture.receiver.received == 0)
    }
}
