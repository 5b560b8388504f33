import Analytics
import CourierCore
import CourierTesting
import Foundation
import Testing

/// How the SDK reacts to the collector's answers: partial acceptance (200 with `rejected`),
/// a refused body (400, bisected down to the bad event), and `alias`'s `previousId`.
@Suite(.timeLimit(.minutes(2)))
struct UploadContractTests {
    let harness: SDKHarness

    init() throws { harness = try SDKHarness() }

    /// A 200 that lists the messages at `indices` as rejected.
    static func accepted(rejecting indices: [Int], of messages: [JSONValue]) -> TransportResult {
        let rejected: [JSONValue] = indices.map { index in
            [
                "index": .int(Int64(index)), "messageId": messages[index]["messageId"] ?? .null,
                "code": "invalid_message", "message": "track needs an event name",
            ]
        }
        return .response(
            status: 200, headers: [:],
            body: JSONWriter.encode(["success": true, "rejected": .array(rejected)]))
    }

    /// A collector that refuses (400) any body holding an event named `Bad…`, as it refuses a
    /// body it cannot read.
    func refuseBadEvents() {
        harness.transport.setBodyRule { messages in
            messages.contains { $0["event"]?.stringValue?.hasPrefix("Bad") == true }
                ? FakeTransport.status(400) : nil
        }
    }

    var deliveredNames: [String] { harness.transport.uploadedMessages.compactMap { $0["event"]?.stringValue } }

    @Test func aliasSendsTheCurrentIdAsPreviousId() async throws {
        let analytics = harness.make()
        analytics.track("Anonymous")
        analytics.alias("first-user")
        analytics.identify(userId: "second-user")
        analytics.alias("third-user")
        _ = await analytics.flushed()
        let messages = harness.transport.uploadedMessages
        let anonymousId = try #require(messages.first?["anonymousId"]?.stringValue)
        let aliases = messages.filter { $0["type"] == "alias" }
        #expect(aliases.map { $0["previousId"] } == [.string(anonymousId), "second-user"])
        #expect(aliases.map { $0["userId"] } == ["first-user", "third-user"])
        #expect(analytics.stats.dropped(.poison) == 0)
    }

    @Test func partialAcceptanceDeletesTheBatchAndCountsTheRejected() async throws {
        harness.transport.setBodyRule { messages in Self.accepted(rejecting: [1, 3], of: messages) }
        let analytics = harness.make()
        for i in 0..<5 { analytics.track("E\(i)") }
        let result = await analytics.flushed()
        #expect(result.remaining == 0)
        #expect(harness.transport.uploads.count == 1, "a partly accepted batch is never sent again")
        let stats = analytics.stats
        #expect(stats.sent == 3)
        #expect(stats.dropped(.rejected) == 2)
        #expect(stats.dropped(.poison) == 0)
        #expect(stats.queuedEvents == 0)
    }

    @Test func aRejectedListThatDoesNotFitTheBatchCountsAtMostTheBatch() async throws {
        // Duplicate, negative and out-of-range indices: a confused collector never makes the
        // counters go wrong.
        let body: JSONValue = [
            "success": true, "rejected": [["index": 0], ["index": 0], ["index": -1], ["index": 99], "x"],
        ]
        harness.transport.script([.response(status: 200, headers: [:], body: JSONWriter.encode(body))])
        let analytics = harness.make()
        for i in 0..<2 { analytics.track("E\(i)") }
        _ = await analytics.flushed()
        #expect(analytics.stats.dropped(.rejected) == 1)
        #expect(analytics.stats.sent == 1)
    }

    @Test func aBatchRefusedWholeWithItsRejectedListIsDroppedOnceAndNeverRetried() async throws {
        // The collector's `batch_rejected`: a 400 whose `rejected` names every message.
        harness.transport.setBodyRule { messages in
            let rejected: [JSONValue] = messages.indices.map { ["index": .int(Int64($0)), "code": "event_too_large"] }
            return .response(
                status: 400, headers: [:],
                body: JSONWriter.encode(["code": "batch_rejected", "rejected": .array(rejected)]))
        }
        let analytics = harness.make { $0.maximumUploadsInFlight = 1 }
        analytics.track("Alone")
        var result = await analytics.flushed()
        #expect(result.remaining == 0)
        #expect(harness.transport.uploads.count == 1)
        for i in 0..<4 { analytics.track("E\(i)") }
        result = await analytics.flushed()
        #expect(result.remaining == 0)
        #expect(harness.transport.uploads.count == 2, "a batch refused message by message is not bisected")
        let stats = analytics.stats
        #expect(stats.dropped(.rejected) == 5)
        #expect(stats.dropped(.poison) == 0)
        #expect(stats.sent == 0)
        #expect(stats.retries == 0)
    }

    @Test func aRefusedBatchIsBisectedUntilOnlyTheBadEventIsDropped() async throws {
        refuseBadEvents()
        // One upload at a time: the count of halvings is the figure under test.
        let analytics = harness.make {
            $0.maximumBatchCount = 10
            $0.maximumUploadsInFlight = 1
        }
        let names = (0..<10).map { $0 == 6 ? "Bad" : "E\($0)" }
        for name in names { analytics.track(name) }
        let result = await analytics.flushed()
        #expect(result.remaining == 0)
        #expect(deliveredNames == names.filter { $0 != "Bad" })
        #expect(analytics.stats.dropped(.poison) == 1)
        #expect(analytics.stats.sent == 9)
        // Halving, not one request per event.
        #expect(harness.transport.uploads.count <= 8)
    }

    @Test func twoBadEventsInOneBatchCostOnlyThemselves() async throws {
        refuseBadEvents()
        let analytics = harness.make { $0.maximumBatchCount = 16 }
        let names = (0..<16).map { [3, 12].contains($0) ? "Bad\($0)" : "E\($0)" }
        for name in names { analytics.track(name) }
        _ = await analytics.flushed()
        // Halves are sent side by side, so they may arrive in either order: every good event
        // arrives once.
        #expect(deliveredNames.sorted() == names.filter { !$0.hasPrefix("Bad") }.sorted())
        #expect(analytics.stats.dropped(.poison) == 2)
    }

    @Test func aRefusedSingleEventIsDropped() async throws {
        refuseBadEvents()
        let analytics = harness.make()
        analytics.track("Bad")
        _ = await analytics.flushed()
        analytics.track("Good")
        _ = await analytics.flushed()
        #expect(analytics.stats.dropped(.poison) == 1)
        #expect(deliveredNames == ["Good"])
    }
}
