@testable import AnalyticsCollector
import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// The collector as a hostile client would try it.
@Suite(.timeLimit(.minutes(2)))
struct CollectorHardeningTests {
    @Test(arguments: [CollectorBackend.memory, .postgres])
    func hugeOrControlCharacterWriteKeysAreRefusedBeforeAnyLookup(backend: CollectorBackend) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let huge = String(repeating: "k", count: 100_000)
        for (index, key) in [huge, String(repeating: "a", count: 129), "bad\u{01}key", "tab\tkey"].enumerated() {
            let body: JSONValue = ["batch": [CollectorHarness.track("m\(index)")], "writeKey": .string(key)]
            let response = try await harness.post(json: body, auth: "")
            #expect(response.status == 401)
            #expect(response.json?["code"] == "unauthorized")
        }
        // None of them was looked up, so none is remembered.
        #expect(harness.collector.settingsCache.unknownKeyCount == 0)
        let fine: JSONValue = [
            "batch": [CollectorHarness.track("ok")], "writeKey": .string(String(repeating: "a", count: 128)),
        ]
        #expect(try await harness.post(json: fine, auth: "").status == 401)
        #expect(harness.collector.settingsCache.unknownKeyCount == 1)
    }

    /// A batch whose write key is in its body is read before the key can be checked, so such
    /// reads have one cap for all clients: with its slots taken, one is refused with 429 and a
    /// `Retry-After`, while a batch with its key in the header is still taken.
    @Test func batchesWithTheKeyInTheBodyAreReadUnderACapForAllClients() async throws {
        let harness = try await CollectorHarness(backend: .memory) { $0.maximumBodyKeyParses = 1 }
        defer { harness.stop() }
        let inBody: JSONValue = [
            "batch": [CollectorHarness.track("b1")], "writeKey": .string(CollectorHarness.writeKey),
        ]
        #expect(harness.collector.bodyKeyParses.tryEnter(), "the one slot, as a read in progress would hold it")
        let refused = try await harness.post(json: inBody, auth: "")
        #expect(refused.status == 429)
        #expect(refused.json?["code"] == "overloaded")
        #expect(refused.header("retry-after") != nil)
        #expect(try await harness.post(json: CollectorHarness.batch(1, prefix: "h")).status == 200)
        harness.collector.bodyKeyParses.leave()
        #expect(try await harness.post(json: inBody, auth: "").status == 200)
        #expect(try await harness.storedEvents().count == 2)
    }

    /// Batches whose body `writeKey` is 64 KB of text, each a different one, are refused with 401
    /// and leave none of that text behind: no table of the collector keeps a refused key (the
    /// refusal log files them under no project), so memory does not grow with such requests.
    @Test(arguments: [CollectorBackend.memory, .postgres]) func refusedLongWriteKeysLeaveNoKeyTextBehind(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        for number in 0..<200 {
            let key = String(repeating: "k", count: 65_536 - String(number).count) + String(number)
            let body: JSONValue = ["batch": [CollectorHarness.track("m\(number)")], "writeKey": .string(key)]
            #expect(try await harness.post(json: body, auth: "").status == 401)
        }
        let rejections = harness.collector.rejections
        #expect(rejections.keyBytes == 0)
        #expect(rejections.projectCount == 1)
        #expect(rejections.messageBytes <= 20 * RejectionLog.maximumMessageBytes)
        #expect(harness.collector.settingsCache.unknownKeyCount == 0)
        // A known project's refusals are still filed under it.
        let disabled = try await harness.client.sendJSON(
            "PUT", harness.server.baseURL + "/v1/projects/\(CollectorHarness.writeKey)/settings", ["enabled": false],
            headers: ["Authorization": "Bearer \(CollectorHarness.adminToken)"])
        #expect(disabled.status == 200)
        #expect(try await harness.post(json: CollectorHarness.batch(1)).status == 403)
        #expect(rejections.projectCount == 2)
        #expect(rejections.keyBytes == CollectorHarness.writeKey.utf8.count)
    }

    /// Every JSON answer tells browsers not to guess another type (`X-Content-Type-Options:
    /// nosniff`): reads, refusals, and the router's own 404.
    @Test(arguments: [CollectorBackend.memory, .postgres]) func everyJSONAnswerSaysNosniff(backend: CollectorBackend)
        async throws
    {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let admin = ["Authorization": "Bearer \(CollectorHarness.adminToken)"]
        let base = harness.server.baseURL
        let answers = [
            try await harness.client.send(
                "GET", base + "/v1/events?writeKey=\(CollectorHarness.writeKey)", headers: admin),
            try await harness.post(json: CollectorHarness.batch(1)),
            try await harness.post(json: CollectorHarness.batch(1), auth: ""),
            try await harness.client.send("GET", base + "/v1/nowhere"),
            try await harness.client.send("GET", base + "/v1/projects/\(CollectorHarness.writeKey)/settings"),
        ]
        for answer in answers {
            #expect(answer.header("content-type")?.hasPrefix("application/json") == true)
            #expect(answer.header("x-content-type-options") == "nosniff", "\(answer.status)")
        }
        #expect(answers.map(\.status) == [200, 200, 401, 404, 200])
    }

    @Test func unknownKeysStayBoundedAndNeverPushOutRealProjects() throws {
        let store = try CollectorBackend.memory.makeStore()
        try store.registerProject(writeKey: "real")
        let counting = FaultInjectingStore(store)
        let cache = SettingsCache(store: counting, clock: ManualClock(), ttl: .seconds(60))
        #expect(try cache.settings(writeKey: "real") != nil)
        for i in 0..<(SettingsCache.maximumUnknownKeys * 2 + 10) {
            #expect(try cache.settings(writeKey: "unknown-\(i)") == nil)
        }
        #expect(cache.unknownKeyCount <= SettingsCache.maximumUnknownKeys)
        let readsBefore = counting.settingsReads.load(ordering: .relaxed)
        #expect(try cache.settings(writeKey: "real") != nil)
        // Still cached: no store read for the real project.
        #expect(counting.settingsReads.load(ordering: .relaxed) == readsBefore)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func eachWriteKeyHasARateLimit(backend: CollectorBackend)
        async throws
    {
        let harness = try await CollectorHarness(backend: backend) {
            $0.rateLimitPerWriteKey = RateLimit(perSecond: 1, burst: 2)
        }
        defer { harness.stop() }
        #expect(try await harness.post(json: CollectorHarness.batch(1, prefix: "a")).status == 200)
        #expect(try await harness.post(json: CollectorHarness.batch(1, prefix: "b")).status == 200)
        let limited = try await harness.post(json: CollectorHarness.batch(1, prefix: "c"))
        #expect(limited.status == 429)
        #expect(limited.json?["code"] == "rate_limited")
        #expect(limited.header("retry-after") == "1")
        harness.clock.advance(by: .seconds(1))
        #expect(try await harness.post(json: CollectorHarness.batch(1, prefix: "c")).status == 200)
        #expect(try await harness.storedEvents().count == 3)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func eachClientAddressHasARateLimit(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend) {
            $0.rateLimitPerClient = RateLimit(perSecond: 0.5, burst: 1)
        }
        defer { harness.stop() }
        #expect(try await harness.post(json: CollectorHarness.batch(1, prefix: "a")).status == 200)
        // Even with a wrong key: the client's bucket is spent before any lookup.
        let limited = try await harness.post(
            json: CollectorHarness.batch(1, prefix: "b"),
            auth: "Basic " + Base64.encode(Array("nope:".utf8)))
        #expect(limited.status == 429)
        #expect(limited.header("retry-after") == "2")
    }

    /// Posts a one-event batch said to come from `client` (`X-Forwarded-For`); its status.
    static func post(_ prefix: String, from client: String, to harness: CollectorHarness) async throws -> Int {
        try await harness.post(json: CollectorHarness.batch(1, prefix: prefix), headers: ["X-Forwarded-For": client])
            .status
    }

    /// Over the wire: `X-Forwarded-For` picks the client's bucket only on a connection from a
    /// trusted proxy; from anyone else a spoofed header still spends the peer's bucket.
    @Test(arguments: [true, false])
    func theClientLimitKeysOnForwardedForOnlyFromATrustedProxy(trusted: Bool) async throws {
        let harness = try await CollectorHarness(trustedProxies: trusted ? ["127.0.0.1"] : ["10.0.0.0/8"]) {
            $0.rateLimitPerClient = RateLimit(perSecond: 0.5, burst: 1)
        }
        defer { harness.stop() }
        func post(_ prefix: String, from client: String) async throws -> Int {
            try await Self.post(prefix, from: client, to: harness)
        }
        #expect(try await post("a", from: "198.51.100.1") == 200)
        #expect(try await post("b", from: "198.51.100.2") == (trusted ? 200 : 429))
        #expect(try await post("c", from: "198.51.100.1") == 429)
    }

    /// Over the wire: an IPv6 client is counted by its `/64`, so moving to another address of
    /// its own network (any host can) does not buy a fresh bucket.
    @Test func theClientLimitCountsAnIPv6ClientByItsSlash64() async throws {
        let harness = try await CollectorHarness(trustedProxies: ["127.0.0.1"]) {
            $0.rateLimitPerClient = RateLimit(perSecond: 0.5, burst: 1)
        }
        defer { harness.stop() }
        func post(_ prefix: String, from client: String) async throws -> Int {
            try await Self.post(prefix, from: client, to: harness)
        }
        #expect(try await post("a", from: "2001:db8:7:1::1") == 200)
        #expect(try await post("b", from: "2001:db8:7:1::2") == 429)
        #expect(try await post("c", from: "2001:db8:7:1:dead:beef:0:1") == 429)
        #expect(try await post("d", from: "2001:db8:7:2::1") == 200)
    }

    @Test func aStorageQuotaRefusesWithAClearCodeAndStoresNothingOfTheBatch() async throws {
        let harness = try await CollectorHarness(backend: .file) { $0.storageQuotaPerWriteKey = 1_500 }
        defer { harness.stop() }
        let first = try await harness.post(json: CollectorHarness.batch(3, prefix: "a"))
        #expect(first.status == 200)
        var refused: HTTPClientResponse?
        for round in 0..<20 {
            let response = try await harness.post(json: CollectorHarness.batch(3, prefix: "r\(round)-"))
            if response.status != 200 {
                refused = response
                break
            }
        }
        let answer = try #require(refused)
        #expect(answer.status == 507)
        #expect(answer.json?["code"] == "quota_exceeded")
        let stored = try await harness.storedEvents()
        #expect(stored.count % 3 == 0)
        let usage = try harness.store.usage()[CollectorHarness.writeKey] ?? 0
        #expect(usage <= 1_500)
        #expect(usage > 0)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func aTotalQuotaCountsEveryProject(backend: CollectorBackend)
        async throws
    {
        let harness = try await CollectorHarness(backend: backend) { $0.storageQuotaTotal = 600 }
        defer { harness.stop() }
        try harness.collector.register(writeKeys: ["second-key"])
        #expect(try await harness.post(json: CollectorHarness.batch(2, prefix: "a")).status == 200)
        let other = try await harness.post(
            json: CollectorHarness.batch(2, prefix: "b"),
            auth: "Basic " + Base64.encode(Array("second-key:".utf8)))
        #expect(other.status == 507)
    }

    @Test func storageFailuresNameTheirKindNotSQLite() async throws {
        let store = FaultInjectingStore(try CollectorBackend.memory.makeStore())
        let harness = try await CollectorHarness(store: store)
        defer { harness.stop() }
        // Two failures: the shared commit and the batch's own retry.
        store.failuresLeft.store(2, ordering: .releasing)
        let failed = try await harness.post(json: CollectorHarness.batch(1))
        #expect(failed.status == 503)
        let text = String(decoding: failed.body, as: UTF8.self)
        #expect(!text.contains("SQLite") && !text.contains("INSERT"))
        #expect(failed.json?["message"] == "the event store is unavailable; nothing was stored")
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func responsesHaveTheirKeysInAFixedOrder(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        var bodies = Set<String>()
        for _ in 0..<5 {
            let response = try await harness.post(json: CollectorHarness.batch(1), auth: "")
            bodies.insert(String(decoding: response.body, as: UTF8.self))
        }
        #expect(
            bodies == [
                #"{"code":"unauthorized","error":{"code":"unauthorized","message":"a write key is required (HTTP Basic user or writeKey)"},"message":"a write key is required (HTTP Basic user or writeKey)"}"#
            ])
    }

    @Test(arguments: [CollectorBackend.memory, .postgres])
    func twoBatchesWhoseIdsDifferOnlyInInvalidBytesAreNotCollapsed(backend: CollectorBackend) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        func body(_ byte: UInt8) -> [UInt8] {
            Array(#"{"batch":[{"type":"track","event":"e","userId":"u","messageId":"id-"#.utf8) + [byte]
                + Array(#""}]}"#.utf8)
        }
        let first = try await harness.post(body: body(0xFE))
        let second = try await harness.post(body: body(0xFF))
        // Neither is acknowledged and silently dropped: both are refused as invalid JSON.
        #expect(first.status == 400)
        #expect(second.status == 400)
        #expect(second.json?["code"] == "invalid_json")
    }
}
