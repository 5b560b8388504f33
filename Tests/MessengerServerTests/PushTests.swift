import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Synchronization
import Testing

/// A webhook endpoint on loopback that records what it receives and answers a set status.
final class WebhookReceiver: Sendable {
    final class Record: Sendable {
        let bodies = Mutex<[[UInt8]]>([])
        let status = Atomic<Int>(200)
    }

    let server: HTTPServer
    let record = Record()

    init() throws {
        var router = Router()
        var http = HTTPServerConfiguration()
        http.port = 0
        router.add("POST", "/push/{device}") { [record] request in
            record.bodies.withLock { $0.append(request.body) }
            return HTTPResponse(status: HTTPStatus(code: record.status.load(ordering: .relaxed)))
        }
        server = HTTPServer(configuration: http, router: router)
        try server.start()
    }

    var received: Int { record.bodies.withLock { $0.count } }

    func stop() { inBackground { [server] in server.stop(deadline: .zero) } }
}

@Suite struct PushTests {
    static func registerWebhook(_ device: TestDevice, _ receiver: WebhookReceiver, harness: MessengerHarness)
        async throws
    {
        let response = try await harness.request(
            "PUT", "/v1/devices/push", as: device,
            json: ["kind": "webhook", "address": .string(receiver.server.baseURL + "/push/\(device.deviceId)")])
        try #require(response.status == 204)
    }

    @Test func anOfflineDeviceGetsOneContentFreePushPerIntervalAndOnlineDevicesNone() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let harness = try MessengerHarness(pushSenders: [.webhook: WebhookPushSender()])
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        try await Self.registerWebhook(bob, receiver, harness: harness)

        _ = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "secret words")
        #expect(await poll { receiver.received == 1 })
        let body = String(decoding: receiver.record.bodies.withLock { $0[0] }, as: UTF8.self)
        #expect(body == #"{"type":"mailbox"}"#)
        #expect(!body.contains("secret") && !body.contains(alice.accountId), "the push carries content or the sender")

        // Coalesced: more envelopes within the interval send no more pushes.
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(
            await poll { harness.messenger.metricsText().contains("courier_messenger_pushes_coalesced_total 2") })
        #expect(receiver.received == 1)
        harness.clock.advance(by: .seconds(61))
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(await poll { receiver.received == 2 })

        // Online: delivered on the socket, no push.
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await harness.connect(bob, client: client)
        var reader = DeliveryReader(socket)
        while let frame = await reader.next(), frame["path"] != "/api/v1/queue/empty" {}
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "now")
        #expect(await reader.next()?.envelopeContent == "now for 1")
        #expect(receiver.received == 2)
    }

    @Test func aLiveDeviceThatDoesNotAcknowledgeInTimeIsPushedToo() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let harness = try MessengerHarness(pushSenders: [.webhook: WebhookPushSender()]) {
            $0.unackedPushDelayMilliseconds = 10_000
        }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        try await Self.registerWebhook(bob, receiver, harness: harness)
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await harness.connect(bob, client: client)
        var reader = DeliveryReader(socket)
        #expect(await reader.next()?["path"] == "/api/v1/queue/empty")

        // Acknowledged in time: no push.
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "a")
        let first = await reader.next()
        try await DeliverySocketTests.ack(first, on: socket)
        try await harness.clock.waitForSleepers(1)
        #expect(
            await poll {
                (try? harness.store.mailbox(accountId: bob.accountId, deviceId: 1, afterId: 0, limit: 1))?.isEmpty
                    == true
            })
        harness.clock.advance(by: .seconds(10))
        // Not acknowledged: a push after the delay, though the socket is live.
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "b")
        #expect(await reader.next()?.envelopeContent == "b for 1")
        try await harness.clock.waitForSleepers(1)
        #expect(receiver.received == 0)
        harness.clock.advance(by: .seconds(10))
        #expect(await poll { receiver.received == 1 })
    }

    @Test func anEndpointThatAnswers410IsForgotten() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        receiver.record.status.store(410, ordering: .relaxed)
        let harness = try MessengerHarness(pushSenders: [.webhook: WebhookPushSender()])
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        try await Self.registerWebhook(bob, receiver, harness: harness)
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(await poll { (try? harness.store.device(accountId: bob.accountId, deviceId: 1))??.push == nil })
        #expect(receiver.received == 1)
    }

    @Test func malformedPushRegistrationsAreRefused() async throws {
        let harness = try MessengerHarness()
        defer { harness.stop() }
        let bob = try await harness.register()
        for body: JSONValue in [
            ["kind": "apns", "address": "not-a-token"], ["kind": "webhook", "address": "ftp://example"],
            ["kind": "carrier-pigeon", "address": "x"],
        ] {
            #expect(try await harness.request("PUT", "/v1/devices/push", as: bob, json: body).status == 400)
        }
    }
}
