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
    /// `/slow/…` requests signal here when they arrive, and wait for `releaseSlow()`.
    let (slowEntered, slowEnteredContinuation) = AsyncStream<Void>.makeStream()
    private let (slowRelease, slowReleaseContinuation) = AsyncStream<Void>.makeStream(
        bufferingPolicy: .bufferingNewest(1))

    init() throws {
        var router = Router()
        var http = HTTPServerConfiguration()
        http.port = 0
        router.add("POST", "/slow/{device}") { [slowEnteredContinuation, slowRelease] _, _ in
            slowEnteredContinuation.yield()
            for await _ in slowRelease { break }
            return HTTPResponse(status: 200)
        }
        router.add("POST", "/push/{device}") { [record] request in
            record.bodies.withLock { $0.append(request.body) }
            var response = HTTPResponse(status: HTTPStatus(code: record.status.load(ordering: .relaxed)))
            if (300..<400).contains(response.status.code) { response.headers.append(("Location", "/push/elsewhere")) }
            return response
        }
        server = HTTPServer(configuration: http, router: router)
        try server.start()
    }

    var received: Int { record.bodies.withLock { $0.count } }

    /// Lets the `/slow/…` request answer.
    func releaseSlow() { slowReleaseContinuation.yield() }

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

    /// A server whose unacknowledged-push delay is 10 s on its manual clock (and the grace before
    /// the push for what an ended socket left unread `unreadPushGrace` milliseconds), Alice, and
    /// Bob with a webhook push endpoint on `receiver`.
    static func bobWithAWebhook(_ backend: StoreBackend, unreadPushGrace: Int64 = 0) async throws -> (
        receiver: WebhookReceiver, harness: MessengerHarness, alice: TestDevice, bob: TestDevice
    ) {
        let receiver = try WebhookReceiver()
        let harness = try await MessengerHarness(
            backend: backend, pushSenders: [.webhook: WebhookPushSender(addresses: .allowingLoopback)]
        ) {
            $0.unackedPushDelayMilliseconds = 10_000
            $0.unreadPushGraceMilliseconds = unreadPushGrace
            $0.webhookAddresses = .allowingLoopback
        }
        let alice = try await harness.register()
        let bob = try await harness.register()
        try await registerWebhook(bob, receiver, harness: harness)
        return (receiver, harness, alice, bob)
    }

    @Test(arguments: StoreBackend.allCases) func anOfflineDeviceGetsOneContentFreePushPerIntervalAndOnlineDevicesNone(
        backend: StoreBackend
    ) async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let harness = try await MessengerHarness(
            backend: backend, pushSenders: [.webhook: WebhookPushSender(addresses: .allowingLoopback)]
        ) {
            $0.webhookAddresses = .allowingLoopback
        }
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

    @Test(arguments: StoreBackend.allCases) func aLiveDeviceThatDoesNotAcknowledgeInTimeIsPushedToo(
        backend: StoreBackend
    ) async throws {
        let (receiver, harness, alice, bob) = try await Self.bobWithAWebhook(backend)
        defer {
            receiver.stop()
            harness.stop()
        }
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

    @Test(arguments: StoreBackend.allCases) func anEndpointThatAnswers410IsForgotten(backend: StoreBackend) async throws
    {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        receiver.record.status.store(410, ordering: .relaxed)
        let harness = try await MessengerHarness(
            backend: backend, pushSenders: [.webhook: WebhookPushSender(addresses: .allowingLoopback)]
        ) {
            $0.webhookAddresses = .allowingLoopback
        }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        try await Self.registerWebhook(bob, receiver, harness: harness)
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(await poll { (try? harness.store.device(accountId: bob.accountId, deviceId: 1))??.push == nil })
        #expect(receiver.received == 1)
    }

    /// Webhook addresses that are literals of loopback, link-local, private, multicast,
    /// unspecified or reserved addresses (in every spelling the resolver reads) are refused at
    /// registration; public ones and names are accepted.
    @Test(arguments: [
        ("http://127.0.0.1:9/push", false), ("http://169.254.169.254/latest/meta-data", false),
        ("http://0.0.0.0:8080/", false), ("http://[::1]:8080/", false), ("http://[::]/", false),
        ("http://[::ffff:127.0.0.1]/", false), ("http://[::ffff:a9fe:a9fe]/", false), ("http://10.1.2.3/", false),
        ("http://172.16.0.1/", false), ("http://192.168.1.1/", false), ("http://100.64.0.1/", false),
        ("http://[fd12::1]/", false), ("http://[fe80::1%25eth0]/", false), ("http://224.0.0.1/", false),
        ("http://[ff02::1]/", false), ("http://255.255.255.255/", false), ("http://2130706433/", false),
        ("http://127.1/", false), ("http://0x7f.0.0.1/", false), ("http://[64:ff9b::7f00:1]/", false),
        ("http://[2002:7f00:1::]/", false), ("http://localhost:8080/", false), ("http://api.localhost./", false),
        ("https://push.example.com/up/abc", true), ("http://93.184.215.14/hook", true),
        ("https://[2606:4700:4700::1111]/hook", true),
    ])
    func webhookRegistrationRefusesInternalAddresses(address: String, accepted: Bool) async throws {
        let harness = try await MessengerHarness()
        defer { harness.stop() }
        let bob = try await harness.register()
        let response = try await harness.request(
            "PUT", "/v1/devices/push", as: bob, json: ["kind": "webhook", "address": .string(address)])
        #expect(response.status == (accepted ? 204 : 400), "\(address): \(response.status)")
        if !accepted {
            let message = response.json?["message"]?.stringValue ?? ""
            #expect(message.hasPrefix("a webhook address may not be"), "\(message)")
        }
    }

    /// The allow-list opens what it names, and only that.
    @Test(arguments: StoreBackend.allCases) func allowedNetworksAreAcceptedAtRegistration(backend: StoreBackend)
        async throws
    {
        let network = try #require(IPNetwork("10.8.0.0/16"))
        let harness = try await MessengerHarness(backend: backend) {
            $0.webhookAddresses = WebhookAddressPolicy(allowedNetworks: [network])
        }
        defer { harness.stop() }
        let bob = try await harness.register()
        for (address, status) in [("http://10.8.3.4/hook", 204), ("http://10.9.0.1/hook", 400)] {
            let body: JSONValue = ["kind": "webhook", "address": .string(address)]
            let response = try await harness.request("PUT", "/v1/devices/push", as: bob, json: body)
            #expect(response.status == status, "\(address)")
        }
    }

    /// The sender checks the address it connects to after DNS resolution: `localhost` resolves to
    /// loopback, so without the allow-list no connection is made and the listener sees nothing;
    /// with it, the push arrives.
    @Test func aWebhookToLoopbackIsRefusedAfterResolutionUnlessAllowed() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let port = try #require(URL(string: receiver.server.baseURL)?.port)
        let endpoint = PushEndpoint(kind: .webhook, address: "http://localhost:\(port)/push/1")
        let notification = PushNotification(collapseId: "c")
        for address in [endpoint.address, receiver.server.baseURL + "/push/1"] {
            let refused = await WebhookPushSender().send(
                notification, to: PushEndpoint(kind: .webhook, address: address))
            guard case .failed(let reason) = refused else {
                Issue.record("\(address): \(refused)")
                continue
            }
            #expect(reason.contains("refused to connect") && reason.contains("loopback"), "\(reason)")
        }
        #expect(receiver.received == 0)
        let allowed = await WebhookPushSender(addresses: .allowingLoopback).send(notification, to: endpoint)
        #expect(allowed == .sent)
        #expect(receiver.received == 1)
    }

    /// Pushes in flight are capped for the whole sender: one held by an endpoint that does not
    /// answer keeps the next from starting a thread of its own, which fails at once; the slot is
    /// free again once the first is answered.
    @Test func webhookPushesInFlightAreCapped() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let sender = WebhookPushSender(addresses: .allowingLoopback, maximumInFlight: 1)
        let notification = PushNotification(collapseId: "c")
        let baseURL = receiver.server.baseURL
        let endpoint: @Sendable (String) -> PushEndpoint = { PushEndpoint(kind: .webhook, address: baseURL + $0) }
        let held = Task { await sender.send(notification, to: endpoint("/slow/1")) }
        var entered = receiver.slowEntered.makeAsyncIterator()
        _ = await entered.next()
        let refused = await sender.send(notification, to: endpoint("/push/2"))
        guard case .notAttempted(let reason) = refused else {
            Issue.record("\(refused)")
            return
        }
        #expect(reason.contains("in flight"), "\(reason)")
        #expect(receiver.received == 0)
        receiver.releaseSlow()
        #expect(await held.value == .sent)
        #expect(await sender.send(notification, to: endpoint("/push/3")) == .sent)
        #expect(receiver.received == 1)
    }

    /// A push the sender did not attempt (at its cap) does not use up the device's push window:
    /// the next envelope pushes at once, within the interval.
    @Test func aPushNotAttemptedLeavesTheDevicesWindowOpen() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let sender = WebhookPushSender(addresses: .allowingLoopback, maximumInFlight: 1)
        let harness = try await MessengerHarness(backend: .sqlite, pushSenders: [.webhook: sender]) {
            $0.webhookAddresses = .allowingLoopback
        }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        try await Self.registerWebhook(bob, receiver, harness: harness)
        // The sender's one slot is held by a push to an endpoint that does not answer yet.
        let baseURL = receiver.server.baseURL
        let held = Task {
            await sender.send(
                PushNotification(collapseId: "c"), to: PushEndpoint(kind: .webhook, address: baseURL + "/slow/0"))
        }
        var entered = receiver.slowEntered.makeAsyncIterator()
        _ = await entered.next()
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(await poll { harness.messenger.metricsText().contains("courier_messenger_pushes_failed_total 1") })
        receiver.releaseSlow()
        #expect(await held.value == .sent)
        // Well within the 60 s interval: the claim of the push not attempted was given back.
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(await poll { receiver.received == 1 })
    }

    /// A redirect is not followed: it would lead the push to an address never checked at
    /// registration.
    @Test func aWebhookRedirectIsNotFollowed() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        receiver.record.status.store(307, ordering: .relaxed)
        let sent = await WebhookPushSender(addresses: .allowingLoopback).send(
            PushNotification(collapseId: "c"),
            to: PushEndpoint(kind: .webhook, address: receiver.server.baseURL + "/push/1"))
        #expect(sent == .failed("endpoint answered 307"))
        #expect(receiver.received == 1)
    }

    @Test(arguments: StoreBackend.allCases) func malformedPushRegistrationsAreRefused(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
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
