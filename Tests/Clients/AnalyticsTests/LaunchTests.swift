import Analytics
import CourierCore
import Foundation
import Testing

/// What creating an instance leaves to the SDK's own task: the app's facts are read there, and
/// calls made before the pipeline has started are kept for it, in order.
@Suite(.timeLimit(.minutes(2)))
struct LaunchTests {
    let harness: SDKHarness

    init() throws { harness = try SDKHarness() }

    @Test func theAppsFactsAreReadOnTheSDKsSideAndStillReachEveryEvent() async throws {
        #expect(AnalyticsConfiguration(writeKey: "k", host: "http://127.0.0.1:9").app == nil)
        let analytics = harness.make()
        analytics.track("Opened")
        _ = await analytics.flushed()
        let app = try #require(harness.transport.uploadedMessages.first?["context"]?["app"])
        #expect(app["name"]?.stringValue == AppInfo.current.name)

        let named = harness.make {
            $0.app = AppInfo(name: "Notes", version: "2.1", build: "210", namespace: "com.example.notes")
        }
        named.track("Opened")
        _ = await named.flushed()
        let given = try #require(harness.transport.uploadedMessages.last?["context"]?["app"])
        #expect(given["name"] == "Notes" && given["build"] == "210")
    }

    @Test func callsMadeRightAfterCreationAreKeptInOrderForThePipeline() async throws {
        let analytics = harness.make()
        // Posted at once, before the pipeline's task has necessarily run: they wait in the
        // mailbox, which rings as soon as the pipeline opens its doorbell.
        for index in 0..<20 { analytics.track("Step", properties: ["i": .int(Int64(index))]) }
        _ = await analytics.flushed()
        let steps = harness.transport.uploadedMessages.compactMap { $0["properties"]?["i"]?.intValue }
        #expect(steps == Array(0..<20).map(Int64.init))
    }
}

extension LaunchTests {
    /// A flood of calls handed over at once is handled in turns of at most 256, so the pipeline's
    /// other jobs (the upload that the first events start, its answer, the timers) run in
    /// between instead of after the whole flood.
    @Test func aFloodIsHandledInShortTurnsAndUploadsWhileItLasts() async throws {
        let analytics = harness.make { $0.flushAt = 100 }
        // Posted faster than the pipeline handles them: its first take finds thousands.
        for index in 0..<5_000 { analytics.track("Flood", properties: ["i": .int(Int64(index))]) }
        _ = await analytics.flushed()
        #expect(analytics.longestPipelineTurn > 0)
        #expect(analytics.longestPipelineTurn <= 256, "\(analytics.longestPipelineTurn) calls in one turn")
        #expect(harness.transport.uploadedMessages.count == 5_000)
    }
}
