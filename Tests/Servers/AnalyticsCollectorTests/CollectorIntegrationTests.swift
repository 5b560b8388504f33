import AnalyticsCollector
import CourierCore
import CourierHTTP
import Foundation
import CourierTesting
import Testing

@Suite(.timeLimit(.minutes(3)))
struct CollectorIntegrationTests {
    @Test(arguments: CollectorBackend.allCases)
    func plainAndGzipBatchesAreStored(backend: CollectorBackend) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let plain = try await harness.post(json: CollectorHarness.batch(3, prefix: "plain"))
        #expect(plain.status == 200)
        #expect(plain.json == ["success": true])
        let gzipped = try Gzip.compress(JSONWriter.encode(CollectorHarness.batch(2, prefix: "gz")))
        let gzip = try await harness.post(body: gzipped, headers: ["Content-Encoding": "gzip"])
        #expect(gzip.status == 200)
        let events = try await harness.storedEvents()
        #expect(
            events.compactMap { $0["messageId"]?.stringValue } == ["plain-0", "plain-1", "plain-2", "gz-0", "gz-1"])
        let first = try #require(events.first)
        #expect(first["properties"] == ["plan": "pro", "price": 19.99])
        #expect(first["receivedAt"] == "2026-11-29T08:00:00.000Z")
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func everySingleMessageEndpointWorks(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let bodies: [(String, JSONValue)] = [
            ("/v1/track", ["event": "Clicked", "userId": "u", "messageId": "t"]),
            ("/v1/identify", ["traits": ["email": "a@b.c"], "userId": "u", "messageId": "i"]),
            ("/v1/screen", ["name": "Home", "anonymousId": "a", "messageId": "s"]),
            ("/v1/page", ["name": "Pricing", "anonymousId": "a", "messageId": "p"]),
            ("/v1/group", ["groupId": "g", "userId": "u", "messageId": "g"]),
            ("/v1/alias", ["previousId": "a", "userId": "u", "messageId": "a"]),
        ]
        for (path, body) in bodies {
            let response = try await harness.post(path, json: body)
            #expect(response.status == 200, "\(path)")
        }
        let types = try await harness.storedEvents().compactMap { $0["type"]?.stringValue }
        #expect(types == ["track", "identify", "screen", "page", "group", "alias"])
        let viaB = try await harness.post("/v1/b", json: CollectorHarness.batch(1, prefix: "b"))
        #expect(viaB.status == 200)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func sharedContextCannotInflateEventsPastTheLimit(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let body: JSONValue = [
            "batch": .array((0..<10).map { CollectorHarness.track("amp-\($0)") }),
            "context": ["blob": .string(String(repeating: "z", count: 32 * 1024))],
        ]
        let response = try await harness.post(json: body)
        // Every message with the shared context is over the limit: each is listed, none stored.
        #expect(response.status == 400)
        #expect(response.json?["code"] == "batch_rejected")
        #expect(response.json?["rejected"]?.arrayValue?.count == 10)
        #expect(response.json?["rejected"]?.arrayValue?.first?["code"] == "event_too_large")
        #expect(try await harness.storedEvents().isEmpty)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func shortPathsImportAndHeaderKeyPrecedence(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        #expect(
            try await harness.post("/v1/t", json: ["event": "Short", "userId": "u", "messageId": "t1"]).status == 200)
        #expect(try await harness.post("/v1/import", json: CollectorHarness.batch(1, prefix: "imp")).status == 200)
        // The Authorization header wins over a wrong key in the body, and the body's key is not stored.
        let body: JSONValue = [
            "batch": [CollectorHarness.track("hdr", extra: ["writeKey": "leak"])], "writeKey": "wrong",
        ]
        #expect(try await harness.post(json: body).status == 200)
        let malformed = try await harness.post(json: CollectorHarness.batch(1), auth: "Basic !!!notbase64")
        #expect(malformed.status == 401)
        let events = try await harness.storedEvents()
        #expect(events.compactMap { $0["messageId"]?.stringValue } == ["t1", "imp-0", "hdr"])
        #expect(events.allSatisfy { $0["writeKey"] == nil })
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func browsersGetACORSPreflightAndHeaders(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        // Over a raw socket: the exact status (204) is what browsers see.
        let preflight = await harness.preflight("/v1/t", method: "POST", origin: "https://shop.example")
        #expect(preflight?.status == 204)
        #expect(preflight?.head.contains("Access-Control-Allow-Origin: *") == true)
        #expect(preflight?.head.contains("Access-Control-Allow-Methods: POST") == true)
        #expect(
            preflight?.head.contains("Access-Control-Allow-Headers: Content-Type, Content-Encoding, Authorization")
                == true)
        let post = try await harness.post(
            "/v1/t", json: ["event": "Web", "anonymousId": "a"],
            headers: ["Origin": "https://shop.example"])
        #expect(post.header("access-control-allow-origin") == "*")
    }

    /// Admin routes take a bearer token: no web page may call them, so their preflight is
    /// refused and their answers carry no CORS header.
    @Test(arguments: [("PUT", "/v1/projects/k/settings"), ("GET", "/v1/events"), ("GET", "/metrics")])
    func adminRoutesRefuseBrowserPreflight(method: String, path: String) async throws {
        let harness = try await CollectorHarness()
        defer { harness.stop() }
        let preflight = await harness.preflight(path, method: method, origin: "https://evil.example")
        #expect(preflight?.status == 403)
        #expect(preflight?.head.lowercased().contains("access-control-allow") == false)
        let answer = try await harness.client.send(
            "GET", harness.server.baseURL + "/v1/events?writeKey=k",
            headers: ["Origin": "https://evil.example"])
        #expect(answer.header("access-control-allow-origin") == nil)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func afterShutdownBatchesGet503(backend: CollectorBackend)
        async throws
    {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        harness.collector.shutdown()
        let response = try await harness.post(json: CollectorHarness.batch(1))
        #expect(response.status == 503)
        #expect(response.json?["code"] == "shutting_down")
        #expect(response.header("retry-after") == "1")
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func writeKeyInTheBodyIsAccepted(backend: CollectorBackend)
        async throws
    {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let body: JSONValue = [
            "batch": [CollectorHarness.track("body-key")], "writeKey": .string(CollectorHarness.writeKey),
        ]
        let response = try await harness.post(json: body, auth: "")
        #expect(response.status == 200)
        #expect(try await harness.storedEvents().count == 1)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func wrongOrMissingWriteKeyIs401WithSegmentsErrorShape(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let wrong = try await harness.post(
            json: CollectorHarness.batch(1),
            auth: "Basic " + Base64.encode(Array("nope:".utf8)))
        #expect(wrong.status == 401)
        #expect(wrong.json?["code"] == "unauthorized")
        #expect(wrong.json?["message"] == "unknown write key")
        #expect(wrong.json?["error"]?["code"] == "unauthorized")
        let missing = try await harness.post(json: CollectorHarness.batch(1), auth: "")
        #expect(missing.status == 401)
        #expect(try await harness.storedEvents().isEmpty)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func badJSONAndBadFieldsAre400AndStoreNothing(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let bad = try await harness.post(body: Array("{\"batch\": [".utf8))
        #expect(bad.status == 400)
        #expect(bad.json?["code"] == "invalid_json")
        let partlyBad: JSONValue = ["batch": [CollectorHarness.track("ok"), ["type": "track", "userId": "u"]]]
        #expect(try await harness.storedEvents().isEmpty)
        // One bad message of a batch costs only itself: the answer lists it, the rest is stored.
        let fields = try await harness.post(json: partlyBad)
        #expect(fields.status == 200)
        let rejected = try #require(fields.json?["rejected"]?.arrayValue)
        #expect(rejected.count == 1)
        #expect(rejected.first?["index"] == 1)
        #expect(rejected.first?["code"] == "invalid_message")
        #expect(rejected.first?["message"]?.stringValue?.contains("message 1: track needs an event name") == true)
        #expect(try await harness.storedEvents().map { $0["messageId"] } == ["ok"])
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func aBatchWithNothingStoredIs400AndAPartlyStoredOne200(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let nameless: JSONValue = ["type": "track", "userId": "u", "messageId": "nameless"]
        let big = CollectorHarness.track(
            "big", extra: ["properties": ["blob": .string(String(repeating: "x", count: 33 * 1024))]])
        // Nothing stored: a 400 whose body still lists every message and why, as Segment answers.
        let none = try await harness.post(json: ["batch": [nameless, big]])
        #expect(none.status == 400)
        #expect(none.json?["code"] == "batch_rejected")
        #expect(none.json?["error"]?["code"] == "batch_rejected")
        #expect(none.json?["success"] == nil)
        let listed = try #require(none.json?["rejected"]?.arrayValue)
        #expect(listed.map { $0["index"] } == [0, 1])
        #expect(listed.map { $0["code"] } == ["invalid_message", "event_too_large"])
        #expect(listed.map { $0["messageId"] } == ["nameless", "big"])
        #expect(try await harness.storedEvents().isEmpty)
        // Partly stored: a 200 with the same list for what was left out.
        let some = try await harness.post(json: ["batch": [nameless, CollectorHarness.track("kept"), big]])
        #expect(some.status == 200)
        #expect(some.json?["success"] == true)
        #expect(some.json?["rejected"]?.arrayValue?.map { $0["index"] } == [0, 2])
        #expect(try await harness.storedEvents().map { $0["messageId"] } == ["kept"])
        // An empty batch refuses nothing.
        #expect(try await harness.post(json: ["batch": []]).status == 200)
        // Duplicates count as stored: the batch was accepted before.
        #expect(try await harness.post(json: ["batch": [CollectorHarness.track("kept")]]).status == 200)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func eachLimitIsEnforced(backend: CollectorBackend)
        async throws
    {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let tooMany = try await harness.post(json: CollectorHarness.batch(2_501))
        #expect(tooMany.status == 413)
        #expect(tooMany.json?["code"] == "batch_too_large")
        let bigEvent = CollectorHarness.track(
            "big", extra: ["properties": ["blob": .string(String(repeating: "x", count: 33 * 1024))]])
        let eventResponse = try await harness.post(json: ["batch": [bigEvent]])
        #expect(eventResponse.status == 400)
        #expect(eventResponse.json?["rejected"]?.arrayValue?.first?["code"] == "event_too_large")
        let manyBig: JSONValue = [
            "batch": .array(
                (0..<20).map { i in
                    CollectorHarness.track(
                        "b\(i)", extra: ["properties": ["blob": .string(String(repeating: "y", count: 30 * 1024))]])
                })
        ]
        let batchResponse = try await harness.post(json: manyBig)
        #expect(batchResponse.status == 413)
        #expect(batchResponse.json?["code"] == "batch_too_large")
        // Exactly at the limits is fine.
        let atLimit = try await harness.post(json: CollectorHarness.batch(2_500, prefix: "limit"))
        #expect(atLimit.status == 200)
        #expect(try await harness.storedEvents().count == 2_500)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func zipBombIs413(backend: CollectorBackend) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        var bomb = Array("{\"batch\":[],\"pad\":\"".utf8)
        bomb += [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 20)
        let compressed = try Gzip.compress(bomb)
        let response = try await harness.post(body: compressed, headers: ["Content-Encoding": "gzip"])
        #expect(response.status == 413)
        #expect(response.json?["code"] == "payload_too_large")
    }

    @Test(arguments: CollectorBackend.allCases)
    func aRetriedBatchIsStoredOnceAndStillGets200(backend: CollectorBackend) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let batch = CollectorHarness.batch(50, prefix: "retry")
        for _ in 0..<3 {
            let response = try await harness.post(json: batch)
            #expect(response.status == 200)
        }
        #expect(try await harness.storedEvents().count == 50)
        let metrics = try await harness.client.send("GET", harness.server.baseURL + "/metrics")
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(text.contains("courier_collector_events_stored_total 50"))
        #expect(text.contains("courier_collector_events_duplicate_total 100"))
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func dedupeWindowExpiresWithTheClock(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend) { $0.dedupeWindow = .seconds(3600) }
        defer { harness.stop() }
        _ = try await harness.post(json: CollectorHarness.batch(1, prefix: "w"))
        harness.clock.advance(by: .seconds(1800))
        _ = try await harness.post(json: CollectorHarness.batch(1, prefix: "w"))
        #expect(try await harness.storedEvents().count == 1)
        harness.clock.advance(by: .seconds(1801))
        _ = try await harness.post(json: CollectorHarness.batch(1, prefix: "w"))
        #expect(try await harness.storedEvents().count == 2)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func clockSkewIsCorrectedWithTheServersClock(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        // The device's clock is 3 h behind; the event happened 10 s before the upload.
        let body: JSONValue = [
            "batch": [CollectorHarness.track("skew", extra: ["timestamp": "2026-11-29T04:59:50.000Z"])],
            "sentAt": "2026-11-29T05:00:00.000Z",
        ]
        harness.clock.advance(by: .seconds(90))
        _ = try await harness.post(json: body)
        let event = try #require(try await harness.storedEvents().first)
        #expect(event["receivedAt"] == "2026-11-29T08:01:30.000Z")
        #expect(event["timestamp"] == "2026-11-29T08:01:20.000Z")
        #expect(event["originalTimestamp"] == "2026-11-29T04:59:50.000Z")
        #expect(event["sentAt"] == "2026-11-29T05:00:00.000Z")
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func killSwitchRefusesBatchesAndIsServedToSDKs(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend) { $0.settingsCacheTTL = .seconds(0) }
        defer { harness.stop() }
        let settingsURL = harness.server.baseURL + "/v1/projects/\(CollectorHarness.writeKey)/settings"
        let initial = try await harness.client.send("GET", settingsURL)
        #expect(initial.json?["enabled"] == true)
        #expect(initial.json?["flushAt"] == 20)

        let unauthorized = try await harness.client.sendJSON("PUT", settingsURL, ["enabled": false])
        #expect(unauthorized.status == 403)
        let admin = ["Authorization": "Bearer \(CollectorHarness.adminToken)"]
        let bad = try await harness.client.sendJSON("PUT", settingsURL, ["sampleRate": 150], headers: admin)
        #expect(bad.status == 400)
        let off = try await harness.client.sendJSON(
            "PUT", settingsURL, ["enabled": false, "sampleRate": 25], headers: admin)
        #expect(off.status == 200)
        let served = try await harness.client.send("GET", settingsURL)
        #expect(served.json?["enabled"] == false)
        #expect(served.json?["sampleRate"] == 25)

        let refused = try await harness.post(json: CollectorHarness.batch(2))
        #expect(refused.status == 403)
        #expect(refused.json?["code"] == "project_disabled")
        #expect(try await harness.storedEvents().isEmpty)

        _ = try await harness.client.sendJSON("PUT", settingsURL, ["enabled": true], headers: admin)
        let accepted = try await harness.post(json: CollectorHarness.batch(2))
        #expect(accepted.status == 200)
        let unknown = try await harness.client.send("GET", harness.server.baseURL + "/v1/projects/nope/settings")
        #expect(unknown.status == 404)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func eventsAPINeedsTheAdminToken(backend: CollectorBackend)
        async throws
    {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let url = harness.server.baseURL + "/v1/events?writeKey=\(CollectorHarness.writeKey)"
        #expect(try await harness.client.send("GET", url).status == 403)
        #expect(try await harness.client.send("GET", url, headers: ["Authorization": "Bearer wrong"]).status == 403)
        let badLimit = try await harness.client.send(
            "GET", url + "&limit=0",
            headers: ["Authorization": "Bearer \(CollectorHarness.adminToken)"])
        #expect(badLimit.status == 400)
    }

    @Test func overloadIs429WithRetryAfter() async throws {
        let store = FaultInjectingStore(try CollectorBackend.memory.makeStore())
        let harness = try await CollectorHarness(store: store) {
            $0.maximumPendingEvents = 20
            $0.retryAfterSeconds = 7
            $0.commitTimeout = .seconds(120)
        }
        defer { harness.stop() }
        store.holdCommits.store(true, ordering: .releasing)
        let first = Task { try await harness.rawPost(CollectorHarness.batch(8, prefix: "a")) }
        #expect(await waitOffPool(store.commitEntered))
        // The first batch (8) is committing and the second (8) queues; a third would pass 20.
        let second = Task { try await harness.rawPost(CollectorHarness.batch(8, prefix: "b")) }
        #expect(await poll { harness.collector.metricsText().contains("courier_collector_pending_events 16") })
        let third = try await harness.rawPost(CollectorHarness.batch(8, prefix: "c"))
        #expect(third.status == 429)
        #expect(third.head.lowercased().contains("retry-after: 7"))
        #expect((try? JSONParser.parse(third.body))?["code"] == "overloaded")
        store.holdCommits.store(false, ordering: .releasing)
        store.releaseCommit.signal()
        #expect(try await first.value.status == 200)
        #expect(try await second.value.status == 200)
        #expect(try await harness.storedEvents().count == 16)
    }

    /// Waiting events are bounded in bytes too: a few large events fill the queue as many small
    /// ones would.
    @Test func overloadCountsBytesNotOnlyEvents() async throws {
        let store = FaultInjectingStore(try CollectorBackend.memory.makeStore())
        let harness = try await CollectorHarness(store: store) {
            $0.maximumPendingBytes = 3_000
            $0.commitTimeout = .seconds(120)
        }
        defer { harness.stop() }
        store.holdCommits.store(true, ordering: .releasing)
        let first = Task { try await harness.rawPost(CollectorHarness.batch(1, prefix: "a")) }
        #expect(await waitOffPool(store.commitEntered))
        // Beside the small one committing, one event of about 2 KB waits; another would pass
        // 3,000 bytes, though 3 events are few.
        let padding = JSONValue.string(String(repeating: "x", count: 2_000))
        let big: @Sendable (String) -> JSONValue = { id in
            ["batch": [CollectorHarness.track(id, extra: ["properties": ["p": padding]])]]
        }
        let second = Task { try await harness.rawPost(big("b")) }
        #expect(await poll { harness.collector.metricsText().contains("courier_collector_pending_events 2") })
        let third = try await harness.rawPost(big("c"))
        #expect(third.status == 429)
        #expect((try? JSONParser.parse(third.body))?["code"] == "overloaded")
        store.holdCommits.store(false, ordering: .releasing)
        store.releaseCommit.signal()
        #expect(try await first.value.status == 200)
        #expect(try await second.value.status == 200)
        #expect(try await harness.storedEvents().count == 2)
    }

    @Test func storeFailureIs503AndTheRetrySucceeds() async throws {
        let store = FaultInjectingStore(try CollectorBackend.file.makeStore())
        let harness = try await CollectorHarness(store: store)
        defer { harness.stop() }
        store.failuresLeft.store(2, ordering: .releasing)
        let failed = try await harness.post(json: CollectorHarness.batch(5, prefix: "f"))
        #expect(failed.status == 503)
        #expect(failed.json?["code"] == "storage_unavailable")
        #expect(try await harness.storedEvents().isEmpty)
        let retried = try await harness.post(json: CollectorHarness.batch(5, prefix: "f"))
        #expect(retried.status == 200)
        #expect(try await harness.storedEvents().count == 5)
    }

    @Test func aCommitThatHangsIs503NotAHungWorker() async throws {
        let store = FaultInjectingStore(try CollectorBackend.file.makeStore())
        let harness = try await CollectorHarness(store: store) { $0.commitTimeout = .milliseconds(200) }
        defer { harness.stop() }
        store.holdCommits.store(true, ordering: .releasing)
        let stuck = try await harness.rawPost(CollectorHarness.batch(3, prefix: "stuck"))
        #expect(stuck.status == 503)
        #expect((try? JSONParser.parse(stuck.body))?["code"] == "commit_timeout")
        #expect(stuck.head.lowercased().contains("retry-after: "))
        // The commit lands later; the client's retry is then a duplicate and stores nothing twice.
        store.holdCommits.store(false, ordering: .releasing)
        store.releaseCommit.signal()
        #expect(await waitOffPool(store.heldCommitFinished))
        #expect(try await harness.storedEvents().count == 3)
        // A retry's own commit may also pass 200 ms on a loaded machine: the client retries again.
        var retry = try await harness.rawPost(CollectorHarness.batch(3, prefix: "stuck"))
        var attempts = 1
        while retry.status == 503, attempts < 20 {
            #expect((try? JSONParser.parse(retry.body))?["code"] == "commit_timeout")
            retry = try await harness.rawPost(CollectorHarness.batch(3, prefix: "stuck"))
            attempts += 1
        }
        #expect(retry.status == 200)
        #expect(try await harness.storedEvents().count == 3)
    }

    @Test func batchesArrivingDuringACommitShareTheNextOne() async throws {
        let store = FaultInjectingStore(try CollectorBackend.file.makeStore())
        let harness = try await CollectorHarness(store: store) { $0.commitTimeout = .seconds(120) }
        defer { harness.stop() }
        store.holdCommits.store(true, ordering: .releasing)
        let first = Task { try await harness.rawPost(CollectorHarness.batch(5, prefix: "first")) }
        #expect(await waitOffPool(store.commitEntered))
        store.holdCommits.store(false, ordering: .releasing)
        let waiting = (0..<6).map { i in Task { try await harness.rawPost(CollectorHarness.batch(5, prefix: "q\(i)")) }
        }
        #expect(await poll { harness.collector.metricsText().contains("courier_collector_pending_events 35") })
        store.releaseCommit.signal()
        let firstAnswer = try await first.value
        #expect(firstAnswer.status == 200, "\(String(decoding: firstAnswer.body, as: UTF8.self))")
        for task in waiting { #expect(try await task.value.status == 200) }
        // One commit for the first batch, one shared by the six that queued behind it.
        #expect(store.commits.load(ordering: .relaxed) == 2)
        #expect(try await harness.storedEvents().count == 35)
    }

    @Test func concurrentBatchesShareCommitsAndLoseNothing() async throws {
        let store = FaultInjectingStore(try CollectorBackend.file.makeStore())
        let harness = try await CollectorHarness(store: store)
        defer { harness.stop() }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    var ok = 0
                    for round in 0..<10 {
                        let response = try await harness.rawPost(
                            CollectorHarness.batch(20, prefix: "w\(worker)-r\(round)"))
                        if response.status == 200 { ok += 1 }
                    }
                    return ok
                }
            }
            var total = 0
            for try await ok in group { total += ok }
            #expect(total == 160)
        }
        #expect(try await harness.storedEvents().count == 3_200)
        #expect(store.commits.load(ordering: .relaxed) <= 160)
    }

    @Test func gracefulStopCommitsTheRequestInFlight() async throws {
        let store = FaultInjectingStore(try CollectorBackend.file.makeStore())
        let harness = try await CollectorHarness(store: store) { $0.commitTimeout = .seconds(120) }
        store.holdCommits.store(true, ordering: .releasing)
        let inFlight = Task { try await harness.rawPost(CollectorHarness.batch(10, prefix: "flight")) }
        #expect(await waitOffPool(store.commitEntered))
        let server = harness.server
        let stopping = Task { await server.shutdown() }
        store.holdCommits.store(false, ordering: .releasing)
        store.releaseCommit.signal()
        let response = try await inFlight.value
        #expect(await stopping.value == 0)
        harness.collector.shutdown()
        #expect(response.status == 200)
        #expect(try store.events(writeKey: CollectorHarness.writeKey, after: 0, limit: 100).events.count == 10)
    }

    @Test(arguments: [CollectorBackend.memory, .postgres]) func segmentsErrorShapeIsOnTheCollectorsRoutesOnly(
        backend: CollectorBackend
    ) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        // An admin route of the collector: refused by the one admin middleware, in Segment's shape.
        let admin = try await harness.client.send("GET", harness.server.baseURL + "/v1/projects")
        #expect(admin.status == 403)
        #expect(admin.json?["code"] == "forbidden")
        #expect(admin.json?["error"]?["code"] == "forbidden")
        let allowed = try await harness.client.send(
            "GET", harness.server.baseURL + "/v1/projects",
            headers: ["Authorization": "Bearer \(CollectorHarness.adminToken)"])
        #expect(allowed.status == 200)
        // A path no route matches belongs to no group: the server's plain error body.
        let unknown = try await harness.client.send("GET", harness.server.baseURL + "/v1/nothing/here")
        #expect(unknown.status == 404)
        #expect(unknown.json?["error"]?["code"] == "not_found")
        #expect(unknown.json?["code"] == nil)
    }
}
