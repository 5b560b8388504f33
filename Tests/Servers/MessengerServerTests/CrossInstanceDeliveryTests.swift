import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Synchronization
import Testing

/// Two instances of the messenger server, each on its own HTTP server, sharing one store, one
/// clock and one bus, as behind a balancer: what one instance stores or decides reaches the
/// sockets the other holds.
@Suite(.timeLimit(.minutes(2)))
struct CrossInstanceDeliveryTests {
    /// Instances A and B.
    struct Pair {
        let a: MessengerHarness
        let b: MessengerHarness

        init(
            backend: StoreBackend, bus: any MessageBus = LocalMessageBus(),
            pushSenders: [PushEndpoint.Kind: any PushSender] = [:],
            configure: @escaping (inout MessengerConfiguration) -> Void = { _ in }
        ) async throws {
            a = try await MessengerHarness(backend: backend, bus: bus, pushSenders: pushSenders, configure: configure)
            b = try await MessengerHarness(sharing: a, bus: bus, pushSenders: pushSenders, configure: configure)
        }

        var clock: ManualClock { a.clock }

        func stop() {
            a.stop()
            b.stop()
        }
    }

    /// Reads frames until the first envelope (past "queue empty" markers): its content.
    static func nextEnvelope(_ reader: inout DeliveryReader) async -> JSONValue? {
        while let frame = await reader.next() {
            if frame["path"] == "/api/v1/message" { return frame }
        }
        return nil
    }

    @Test(arguments: StoreBackend.allCases) func messagesSentThroughOneInstanceArriveLiveOnTheOtherInOrder(
        backend: StoreBackend
    ) async throws {
        let pair = try await Pair(backend: backend) { $0.sendRate = nil }
        defer { pair.stop() }
        let alice = try await pair.a.register()
        let bob = try await pair.a.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        var aliceReader = try await pair.a.connectEmpty(alice, client: client)
        var bobReader = try await pair.b.connectEmpty(bob, client: client)

        for index in 0..<5 {
            let sent = try await pair.a.send(
                from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "m\(index)")
            #expect(sent.status == 200)
        }
        for index in 0..<5 {
            let frame = await bobReader.next()
            #expect(frame?.envelopeContent == "m\(index) for 1")
            #expect(frame?["body"]?["serverSeq"]?.intValue == Int64(index + 1))
            try await DeliverySocketTests.ack(frame, on: bobReader.socket)
        }
        // And back: Bob's reply through B reaches Alice's socket on A.
        _ = try await pair.b.send(
            from: bob, to: alice.accountId, devices: [(1, alice.registrationId)], content: "reply",
            conversationId: "conversation-2")
        #expect(await aliceReader.next()?.envelopeContent == "reply for 1")
    }

    @Test(arguments: StoreBackend.allCases) func aNewerSocketOnTheOtherInstanceClosesTheOlderWith4409(
        backend: StoreBackend
    ) async throws {
        let pair = try await Pair(backend: backend)
        defer { pair.stop() }
        let bob = try await pair.a.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let first = try await pair.a.connectEmpty(bob, client: client).socket
        // Connect times order the sockets; the manual clock moves so that B's is the later.
        pair.clock.advance(by: .seconds(1))
        _ = try await pair.b.connectEmpty(bob, client: client)
        let closed = await first.closed()
        #expect(closed.code.rawValue == 4409)
        #expect(await poll { pair.a.messenger.liveSockets == 0 })
        #expect(pair.b.messenger.liveSockets == 1)
    }

    @Test(arguments: StoreBackend.allCases) func simultaneousConnectsOnBothInstancesLeaveExactlyOne(
        backend: StoreBackend
    ) async throws {
        let pair = try await Pair(backend: backend)
        defer { pair.stop() }
        let alice = try await pair.a.register()
        let bob = try await pair.a.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        // Same manual time on both: the connection ids decide, the same way on each instance.
        async let onA = pair.a.connect(bob, client: client)
        async let onB = pair.b.connect(bob, client: client)
        let sockets = try await [onA, onB]
        let (closes, closing) = AsyncStream.makeStream(of: (Int, UInt16).self)
        for (index, socket) in sockets.enumerated() {
            Task { closing.yield((index, await socket.closed().code.rawValue)) }
        }
        var iterator = closes.makeAsyncIterator()
        let (loser, code) = try #require(await iterator.next())
        #expect(code == 4409)
        #expect(await poll { pair.a.messenger.liveSockets + pair.b.messenger.liveSockets == 1 })
        // The survivor still gets what is sent.
        var survivor = DeliveryReader(sockets[1 - loser])
        _ = try await pair.a.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "one")
        #expect(await Self.nextEnvelope(&survivor)?.envelopeContent == "one for 1")
    }

    /// The half of the race that two connects at once rarely hit: an instance that hears of an
    /// older socket (which subscribed too late to hear this one) announces its own again, and
    /// one that hears of a newer socket closes its own.
    @Test func hearingOfAnOlderSocketAnnouncesThisOneAgainAndOfANewerOneCloses() async throws {
        let bus = LocalMessageBus()
        let harness = try await MessengerHarness(bus: bus)
        defer { harness.stop() }
        let bob = try await harness.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await harness.connectEmpty(bob, client: client).socket

        let subject = "conn.\(BusSubject.token(bob.accountId)).1"
        let (heard, hearing) = AsyncStream.makeStream(of: JSONValue.self)
        let listener = try await bus.subscribe(subject) { hearing.yield((try? JSONParser.parse($0.payload)) ?? .null) }
        defer { listener.cancel() }
        func announce(at: Int64) -> [UInt8] {
            JSONWriter.encode([
                "kind": "connected", "account": .string(bob.accountId), "id": .string("elsewhere-\(at)"),
                "instance": "elsewhere", "at": .int(at),
            ])
        }
        bus.publish(subject, announce(at: 0))
        var iterator = heard.makeAsyncIterator()
        let twoHeard = [await iterator.next(), await iterator.next()]
        let answer = try #require(twoHeard.first { $0?["instance"] != "elsewhere" } ?? nil)
        #expect(answer["kind"] == "connected")
        #expect(harness.messenger.liveSockets == 1)

        bus.publish(subject, announce(at: harness.clock.nowMilliseconds + 1_000))
        #expect(await socket.closed().code.rawValue == 4409)
    }

    @Test(arguments: StoreBackend.allCases) func anOnlineDeviceElsewhereIsNotPushedAndAnOfflineOneOncePerInterval(
        backend: StoreBackend
    ) async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let pair = try await Pair(
            backend: backend, pushSenders: [.webhook: WebhookPushSender(addresses: .allowingLoopback)]
        ) {
            $0.webhookAddresses = .allowingLoopback
            $0.unackedPushDelayMilliseconds = nil
        }
        defer { pair.stop() }
        let alice = try await pair.a.register()
        let bob = try await pair.a.register()
        try await PushTests.registerWebhook(bob, receiver, harness: pair.a)
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }

        // Online on B: a send through A is answered on the bus, and nobody pushes.
        var reader = try await pair.b.connectEmpty(bob, client: client)
        let socket = reader.socket
        _ = try await pair.a.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "live")
        let live = await reader.next()
        #expect(live?.envelopeContent == "live for 1")
        try await DeliverySocketTests.ack(live, on: socket)
        #expect(
            await poll {
                pair.a.messenger.metricsText().contains(
                    #"courier_messenger_presence_checks_total{result="answered"} 1"#)
            })
        #expect(receiver.received == 0)

        // Offline everywhere: one push between both instances per interval.
        socket.outbound.close()
        _ = await socket.closed()
        // B has looked at the mailbox the socket left (empty: its envelope was acknowledged).
        #expect(
            await poll { pair.b.messenger.metricsText().contains("courier_messenger_sockets_ended_total 1") })
        #expect(pair.b.messenger.liveSockets == 0)
        _ = try await pair.a.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(await poll { receiver.received == 1 })
        _ = try await pair.b.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        _ = try await pair.a.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(
            await poll {
                pair.a.messenger.metricsText().contains("courier_messenger_pushes_coalesced_total 1")
                    && pair.b.messenger.metricsText().contains("courier_messenger_pushes_coalesced_total 1")
            })
        #expect(receiver.received == 1)
        pair.clock.advance(by: .seconds(61))
        _ = try await pair.b.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(await poll { receiver.received == 2 })
    }

    @Test(arguments: StoreBackend.allCases) func removingADeviceThroughOneInstanceClosesItsSocketOnTheOther(
        backend: StoreBackend
    ) async throws {
        let pair = try await Pair(backend: backend)
        defer { pair.stop() }
        let bob = try await pair.a.register()
        let laptop = try await pair.a.link(to: bob)
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await pair.b.connectEmpty(laptop, client: client).socket
        let removed = try await pair.a.request("DELETE", "/v1/devices/\(laptop.deviceId)", as: bob)
        #expect(removed.status == 204)
        let closed = await socket.closed()
        #expect(closed.code.rawValue == 4401)
    }

    @Test(arguments: StoreBackend.allCases) func lostWakeUpsAreMadeGoodByTheReadOnConnectTheCatchUpPollAndAReconnect(
        backend: StoreBackend
    ) async throws {
        let bus = DroppingMessageBus()
        let pair = try await Pair(backend: backend, bus: bus) {
            $0.unackedPushDelayMilliseconds = nil
            $0.catchUpInterval = .seconds(30)
        }
        defer { pair.stop() }
        let alice = try await pair.a.register()
        let bob = try await pair.a.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }

        // Stored while Bob is offline: his first read after subscribing finds it.
        _ = try await pair.a.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "before")
        let socket = try await pair.b.connect(bob, client: client)
        var reader = DeliveryReader(socket)
        let before = await reader.next()
        #expect(before?.envelopeContent == "before for 1")
        try await DeliverySocketTests.ack(before, on: socket)
        #expect(await reader.next()?["path"] == "/api/v1/queue/empty")

        // Stored while he is online, its wake-up lost: the catch-up poll on B delivers it.
        let catchUp = try #require(pair.b.messenger.backgroundJobs.first { $0.name == "messenger.catch-up" })
        let polling = Task { await catchUp.run() }
        defer { polling.cancel() }
        try await pair.clock.waitForSleepers(1)
        _ = try await pair.a.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "poll")
        pair.clock.advance(by: .seconds(30))
        let polled = await reader.next()
        #expect(polled?.envelopeContent == "poll for 1")
        try await DeliverySocketTests.ack(polled, on: socket)

        // Lost again: the bus coming back wakes every socket.
        _ = try await pair.a.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "back")
        bus.inner.simulateReconnect()
        #expect(await reader.next()?.envelopeContent == "back for 1")
        #expect(bus.dropped.load(ordering: .relaxed) >= 3)
    }
}
