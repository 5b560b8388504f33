import CourierCore
import CourierHTTP
import CourierNATS
import CourierTesting
import Foundation
import Synchronization
import Testing

/// The messenger on two `courier-server` processes sharing PostgreSQL and NATS, behind haproxy:
/// each test pins an instance by its port, or goes through the proxy.
@Suite(.timeLimit(.minutes(4)))
struct ClusterMessengerTests {
    static func api(_ cluster: TestCluster, _ index: Int) -> MessengerAPI {
        MessengerAPI(baseURL: cluster.baseURL(index), client: HTTPClient(timeout: .seconds(30)))
    }

    static func proxyAPI(_ cluster: TestCluster) -> MessengerAPI {
        MessengerAPI(baseURL: cluster.proxyURL, client: HTTPClient(timeout: .seconds(30)))
    }

    /// Acks every envelope on `socket` and yields it, until the socket closes.
    static func envelopes(on socket: WebSocket) -> AsyncStream<JSONValue> {
        AsyncStream { continuation in
            let reader = Task {
                var frames = DeliveryReader(socket)
                while let frame = await frames.next() {
                    guard let id = frame["id"]?.intValue else { continue }
                    try? socket.outbound.sendNow(.text("{\"type\":\"response\",\"id\":\(id),\"status\":200}"))
                    if frame["path"]?.stringValue == "/api/v1/message", let body = frame["body"] {
                        continuation.yield(body)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }

    /// Waits for the `queue/empty` marker (the stored mailbox has been sent), acking nothing.
    static func waitForQueueEmpty(_ frames: inout DeliveryReader) async {
        while let frame = await frames.next(), frame["path"]?.stringValue != "/api/v1/queue/empty" {}
    }

    @Test func messagesSentThroughOneInstanceArriveLiveOnTheOtherInServerSeqOrder() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let (a, b) = (Self.api(cluster, 0), Self.api(cluster, 1))
        let alice = try await a.register()
        let bob = try await a.register()
        let carol = try await a.register()
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        // Bob's socket is on the other instance, Carol's on the sender's: each send to one is
        // followed by one to the other, so load on the machine weighs on both alike.
        var bobArrivals = Self.envelopes(on: try await b.connect(bob, client: sockets)).makeAsyncIterator()
        var carolArrivals = Self.envelopes(on: try await a.connect(carol, client: sockets)).makeAsyncIterator()
        var order: [Int64] = []
        var across: [UInt64] = []
        var same: [UInt64] = []
        for index in 0..<1_000 {
            var sent = DispatchTime.now().uptimeNanoseconds
            let toBob = try await a.send(
                from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "m\(index)")
            try #require(toBob.status == 200)
            let envelope = try #require(await bobArrivals.next())
            across.append(DispatchTime.now().uptimeNanoseconds - sent)
            order.append(try #require(envelope["serverSeq"]?.intValue))
            sent = DispatchTime.now().uptimeNanoseconds
            let toCarol = try await a.send(
                from: alice, to: carol.accountId, devices: [(1, carol.registrationId)], content: "m\(index)")
            try #require(toCarol.status == 200)
            _ = try #require(await carolArrivals.next())
            same.append(DispatchTime.now().uptimeNanoseconds - sent)
        }
        #expect(order == order.sorted() && Set(order).count == 1_000)
        // Send answered, then delivered: across instances it is the bus's wake-up, not the
        // catch-up poll (every 30 s) that delivers, so each arrival takes a fraction of the poll's
        // interval. The bound says which path delivered, not how fast: timings on a loaded
        // machine are the benchmarks' to report (`courier-bench messenger-cluster`).
        let (acrossMedian, sameMedian) = (across.sorted()[500], same.sorted()[500])
        #expect(
            acrossMedian < 1_000_000_000,
            "median send → delivery across instances \(acrossMedian / 1_000) µs, on the same one \(sameMedian / 1_000) µs"
        )
    }

    @Test func aSocketOnAnotherInstanceClosesTheOlderOneWith4409() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let (a, b) = (Self.api(cluster, 0), Self.api(cluster, 1))
        let bob = try await a.register()
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let onA = try await a.connect(bob, client: sockets)
        var framesOnA = DeliveryReader(onA)
        await Self.waitForQueueEmpty(&framesOnA)
        let onB = try await b.connect(bob, client: sockets)
        var framesOnB = DeliveryReader(onB)
        await Self.waitForQueueEmpty(&framesOnB)
        let closed = await onA.closed()
        #expect(closed.code.rawValue == 4409)
        // The newer socket stays and gets what is sent next.
        let alice = try await a.register()
        #expect(try await a.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)]).status == 200)
        var arrivals = Self.envelopes(on: onB).makeAsyncIterator()
        #expect(await arrivals.next()?["clientMessageId"] != nil)
    }

    @Test func aProvisionSentToOneInstanceReachesTheLinkingSocketOnTheOtherOverNATS() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let (a, b) = (Self.api(cluster, 0), Self.api(cluster, 1))
        let phone = try await a.register()
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let socket = try await sockets.connect(
            to: "ws" + cluster.baseURL(1).dropFirst(4) + "/v1/websocket/provisioning/")
        var frames = DeliveryReader(socket)
        let address = try #require(await frames.next()?["body"]?["address"]?.stringValue)
        let sealed: [UInt8] = (0..<256).map { UInt8($0) }
        let body: JSONValue = ["body": .string(Base64.encode(sealed))]
        let relayed = try await a.request("PUT", "/v1/provisioning/" + address, as: phone, json: body)
        #expect(relayed.status == 204)
        #expect(await frames.next()?["body"]?["body"]?.stringValue.flatMap(Base64.decode) == sealed)
        let unknown = try await b.request(
            "PUT", "/v1/provisioning/" + String(repeating: "ab", count: 16), as: phone, json: body)
        #expect(unknown.status == 404, "no responders anywhere")
    }

    @Test func oneTimePreKeysFetchedConcurrentlyOverBothInstancesAreHandedOutOnce() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let apis = [Self.api(cluster, 0), Self.api(cluster, 1)]
        let bob = try await apis[0].register()
        try await apis[0].uploadKeys(bob, preKeys: 20)
        var fetchers: [TestDevice] = []
        for _ in 0..<32 { fetchers.append(try await apis[1].register()) }
        let keys = try await withThrowingTaskGroup(of: Int64?.self) { group in
            for (index, fetcher) in fetchers.enumerated() {
                group.addTask {
                    let response = try await apis[index % 2].request(
                        "GET", "/v2/keys/\(bob.accountId)/1", as: fetcher)
                    return response.json?["devices"]?.arrayValue?.first?["preKey"]?["keyId"]?.intValue
                }
            }
            var all: [Int64?] = []
            for try await key in group { all.append(key) }
            return all
        }
        let handedOut = keys.compactMap { $0 }
        #expect(handedOut.count == 20 && Set(handedOut).count == 20)
        #expect(keys.filter { $0 == nil }.count == 12)
    }

    @Test func anOnlineDeviceElsewhereGetsNoPushAndAnOfflineOneExactlyOnePerInterval() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let cluster = try await TestCluster.start(extra: ["--push-webhook-allow", "127.0.0.1/32"])
        defer { cluster.stop() }
        let (a, b) = (Self.api(cluster, 0), Self.api(cluster, 1))
        let alice = try await a.register()
        let bob = try await a.register()
        let registered = try await b.request(
            "PUT", "/v1/devices/push", as: bob,
            json: ["kind": "webhook", "address": .string(receiver.server.baseURL + "/push/1")])
        try #require(registered.status == 204)
        // Online on B: sends through A and B push nothing.
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let onB = try await b.connect(bob, client: sockets)
        var arrivals = Self.envelopes(on: onB).makeAsyncIterator()
        // The socket is open before B has subscribed for it; a send in between pushes (and the
        // envelope still arrives, from the mailbox read that follows the subscription).
        #expect(await poll { await Self.presence(of: bob, cluster) == .answered([]) })
        for api in [a, b, a, b] {
            #expect(
                try await api.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)]).status == 200)
            #expect(await arrivals.next() != nil)
        }
        onB.outbound.close()
        _ = await onB.closed()
        #expect(await poll { await Self.isOffline(bob, cluster) })
        let answers = await Self.presenceAnswers(cluster)
        #expect(receiver.received == 0, "presence answers: \(answers)")
        // Offline everywhere: ten sends over both instances make one push (the interval is 60 s).
        for index in 0..<10 {
            let api = index % 2 == 0 ? a : b
            #expect(
                try await api.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)]).status == 200)
        }
        // Every send's push decision has been made once both instances count ten of them (a push
        // is counted after the receiver answered it).
        let decided = ["courier_messenger_pushes_sent_total", "courier_messenger_pushes_coalesced_total"]
        #expect(await poll { await Self.metricSum(decided, cluster) >= 10 })
        #expect(receiver.received == 1)
    }

    /// Whether no socket answers for `device`'s mailbox subject on any instance.
    static func isOffline(_ device: TestDevice, _ cluster: TestCluster) async -> Bool {
        await presence(of: device, cluster) == .noResponders
    }

    /// What the bus answers when asked, as a send asks, whether a socket holds `device`.
    static func presence(of device: TestDevice, _ cluster: TestCluster) async -> BusReply {
        guard let bus = try? NATSMessageBus(url: cluster.nats.url, name: "test-probe") else { return .unavailable }
        return await bus.request(
            "mbx.\(BusSubject.token(device.accountId)).\(device.deviceId)", Array(device.accountId.utf8),
            timeout: .seconds(5))
    }

    /// Every instance's presence counters (what sends were told), for a failure's message.
    static func presenceAnswers(_ cluster: TestCluster) async -> [String] {
        var lines: [String] = []
        for index in cluster.ports.indices {
            guard let response = try? await HTTPClient().send("GET", cluster.baseURL(index) + "/metrics") else {
                continue
            }
            lines += String(decoding: response.body, as: UTF8.self).split(separator: "\n")
                .filter { $0.hasPrefix("courier_messenger_presence_checks_total") }.map { "\(index): \($0)" }
        }
        return lines
    }

    /// The sum over every instance's `/metrics` of the samples named in `names`.
    static func metricSum(_ names: [String], _ cluster: TestCluster) async -> Int {
        var total = 0
        for index in cluster.ports.indices {
            guard let response = try? await HTTPClient().send("GET", cluster.baseURL(index) + "/metrics") else {
                continue
            }
            let text = String(decoding: response.body, as: UTF8.self)
            for line in text.split(separator: "\n") {
                guard let name = line.split(separator: " ").first, names.contains(String(name)) else { continue }
                total += Int(Double(line.split(separator: " ").last ?? "") ?? 0)
            }
        }
        return total
    }

    @Test func aKilledInstanceLosesNoAcknowledgedSendAndRepeatsOnlyUnacknowledgedOnes() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let proxy = Self.proxyAPI(cluster)
        let a = Self.api(cluster, 0)
        let alice = try await a.register()
        let bob = try await a.register()
        let acknowledged = Mutex<[String]>([])
        let stop = CompletionFlag()
        // Sends through haproxy until told to stop; each answered 200 must be delivered.
        let sender = Task {
            var index = 0
            while !stop.isSet {
                index += 1
                let id = "send-\(index)"
                let response = try? await proxy.send(
                    from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], clientMessageId: id)
                if response?.status == 200 { acknowledged.withLock { $0.append(id) } }
            }
        }
        #expect(await poll { acknowledged.withLock { $0.count } >= 50 })
        await cluster.kill(0)
        #expect(await poll { acknowledged.withLock { $0.count } >= 100 })
        stop.set()
        await sender.value
        try await cluster.start(0)
        // Bob connects through haproxy and reads everything, acking as he goes.
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let socket = try await proxy.connect(bob, client: sockets)
        var frames = DeliveryReader(socket)
        var received: [String] = []
        while let frame = await frames.next() {
            guard let id = frame["id"]?.intValue else { continue }
            try? socket.outbound.sendNow(.text("{\"type\":\"response\",\"id\":\(id),\"status\":200}"))
            if frame["path"]?.stringValue == "/api/v1/queue/empty" { break }
            if let clientId = frame["body"]?["clientMessageId"]?.stringValue { received.append(clientId) }
        }
        let sent = Set(acknowledged.withLock { $0 })
        #expect(sent.isSubset(of: Set(received)))
        // Nothing is delivered twice in one drain: a repeat would be a redelivery of the same send.
        #expect(Set(received).count == received.count)
    }

    @Test func withNATSStoppedSendsAreKeptAndLiveDeliveryReturnsWithNATS() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let (a, b) = (Self.api(cluster, 0), Self.api(cluster, 1))
        let alice = try await a.register()
        let bob = try await a.register()
        await cluster.nats.stop()
        #expect(try await a.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)]).status == 200)
        // Stored while the bus was down: read on connect (subscribe, then read the mailbox).
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let onB = try await b.connect(bob, client: sockets)
        var arrivals = Self.envelopes(on: onB).makeAsyncIterator()
        #expect(await arrivals.next() != nil)
        try await cluster.nats.start()
        // Once both instances are back on the bus, a send through A reaches B live again.
        #expect(await poll { await Self.metricSum(["courier_nats_connected"], cluster) == 2 })
        #expect(await poll { await Self.answersPresence(bob, cluster) })
        #expect(try await a.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)]).status == 200)
        #expect(await arrivals.next() != nil)
    }

    /// Whether a socket answers for `device`'s mailbox subject on some instance.
    static func answersPresence(_ device: TestDevice, _ cluster: TestCluster) async -> Bool {
        if case .answered = await presence(of: device, cluster) { return true }
        return false
    }
}
