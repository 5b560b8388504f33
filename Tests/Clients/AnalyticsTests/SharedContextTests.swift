@testable import Analytics
import CourierCore
import CourierTesting
import Foundation
import Testing

/// A session's context is queued once and sent once per batch (Segment's batch-level `context`,
/// which the collector adds to each message); a context a plugin changed stays in its event.
@Suite(.timeLimit(.minutes(2)))
struct SharedContextTests {
    let harness: SDKHarness

    init() throws { harness = try SDKHarness() }

    @Test func aBatchSendsItsSessionsContextOnceAndItsEventsWithoutOne() async throws {
        let analytics = harness.make()
        for index in 0..<5 { analytics.track("Step", properties: ["i": .int(Int64(index))]) }
        _ = await analytics.flushed()
        let upload = try #require(harness.transport.uploads.first)
        let body = try #require(upload.body)
        #expect(body["context"]?["library"]?["name"] == "courier-analytics-swift")
        #expect(body["context"]?["sessionId"] != nil)
        let sent = try #require(body["batch"]?.arrayValue)
        #expect(sent.count == 5)
        #expect(sent.allSatisfy { $0["context"] == nil }, "each event leaves the context to its batch")
    }

    @Test func theQueueHoldsTheContextOnceNotPerEvent() async throws {
        harness.transport.setOffline(true)
        let shared = harness.make()
        let inline = harness.make {
            $0.writeKey = "inline-key"
            // A plugin that returns the event unchanged still makes every context its event's own.
            $0.plugins = [AnalyticsPlugin(name: "same") { $0 }]
        }
        for index in 0..<50 {
            shared.track("Step", properties: ["i": .int(Int64(index))])
            inline.track("Step", properties: ["i": .int(Int64(index))])
        }
        _ = await shared.flushed()
        _ = await inline.flushed()
        let (sharedBytes, inlineBytes) = (shared.stats.queueBytes, inline.stats.queueBytes)
        #expect(shared.stats.queuedEvents == 50 && inline.stats.queuedEvents == 50)
        #expect(sharedBytes * 3 < inlineBytes * 2, "\(sharedBytes) bytes queued against \(inlineBytes)")
    }

    @Test func aPluginsContextTravelsInItsEventAndBatchesDoNotMixThem() async throws {
        let tagged = harness.make {
            $0.plugins = [
                AnalyticsPlugin(name: "tag") { event in
                    var changed = event
                    changed.context["tag"] = "t"
                    return changed
                }
            ]
        }
        for _ in 0..<3 { tagged.track("Tagged") }
        _ = await tagged.flushed()
        let body = try #require(harness.transport.uploads.first?.body)
        #expect(body["context"] == nil)
        #expect(body["batch"]?.arrayValue?.allSatisfy { $0["context"]?["tag"] == "t" } == true)
    }
}

extension SharedContextTests {
    /// A queue an earlier build wrote (every event with its context inside) is migrated in place:
    /// its events go as they are, in a batch of their own, before the new ones.
    @Test func eventsQueuedByAnEarlierBuildGoAsTheyWereBeforeTheNewOnes() async throws {
        let folder = harness.directory.appendingPathComponent(Analytics.storageFolderName(writeKey: "sdk-test-key"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let db = try Database(path: folder.appendingPathComponent("queue.sqlite").path)
            // The schema an earlier build left: its first migration only.
            try Migrator([EventQueue.migrator.migrations[0]]).migrate(db)
            let old = Array(
                #"{"type":"track","messageId":"m-old","timestamp":"2026-11-30T00:00:00.000Z","anonymousId":"a","event":"Old","properties":{},"context":{"library":{"name":"old-build"}}}"#
                    .utf8)
            try db.run(
                "INSERT INTO events(created_at, bytes, payload) VALUES (?1, ?2, ?3)",
                [.integer(1_795_939_200_000), .integer(Int64(old.count)), .blob(old)])
        }
        let analytics = harness.make()
        analytics.track("New")
        _ = await analytics.flushed()
        let bodies = harness.transport.uploads.filter(\.delivered).compactMap(\.body)
        #expect(bodies.count == 2)
        #expect(bodies.first?["context"] == nil)
        #expect(bodies.first?["batch"]?.arrayValue?.first?["context"]?["library"]?["name"] == "old-build")
        #expect(bodies.last?["context"]?["library"]?["name"] == "courier-analytics-swift")
        #expect(harness.transport.uploadedMessages.map { $0["event"] } == ["Old", "New"])
    }
}

extension SharedContextTests {
    /// An app that configures again: the new instance takes the file over and sends the events
    /// the old one queued with the old one's context (read from the rows they name), its own
    /// with its own. No event goes out with the other instance's context.
    @Test func aReplacedInstancesEventsKeepTheirContextAfterTheTakeOver() async throws {
        let first = harness.make {
            $0.app = AppInfo(name: "First", version: "1", build: "1", namespace: "first")
            $0.flushAt = 1_000  // queued, not sent, until the second instance takes over
            $0.writeBufferCount = 1
            $0.writeBufferBurstCount = 1
        }
        first.track("First 1")
        #expect(await poll { first.stats.stored == 1 })
        let second = harness.make { $0.app = AppInfo(name: "Second", version: "2", build: "2", namespace: "second") }
        second.track("Second 1")
        _ = await second.flushed()
        #expect(await poll { second.stats.sent == 2 })
        withExtendedLifetime(first) {}
        let messages = harness.transport.uploadedMessages
        for (event, app) in [("First 1", "First"), ("Second 1", "Second")] {
            let sent = messages.filter { $0["event"]?.stringValue == event }
            #expect(sent.count == 1, "\(event) was uploaded once")
            #expect(sent.allSatisfy { $0["context"]?["app"]?["name"]?.stringValue == app }, "\(event): \(sent)")
        }
    }
}
