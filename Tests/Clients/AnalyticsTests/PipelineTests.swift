import Analytics
import CourierCore
import CourierTesting
import Foundation
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2)))
struct PipelineTests {
    let harness: SDKHarness

    init() throws { harness = try SDKHarness() }

    @Test func timeBasedFlushIsDrivenByTheClock() async throws {
        let analytics = harness.make()
        for i in 0..<3 { analytics.track("Viewed", properties: ["i": .int(Int64(i))]) }
        // The write buffer's timer is the only sleeper; once it fires, the flush timer takes over.
        try await harness.advance(.seconds(1))
        #expect(await poll { analytics.stats.stored == 3 })
        #expect(harness.transport.uploads.isEmpty)
        try await harness.advance(.seconds(28))
        #expect(harness.transport.uploads.isEmpty)
        try await harness.advance(.seconds(2))
        #expect(await poll { harness.transport.uploadedMessages.count == 3 })
        #expect(await poll { analytics.stats.sent == 3 && analytics.stats.queuedEvents == 0 })
    }

    @Test func countTriggerUploadsWithoutWaitingForTheTimer() async throws {
        let analytics = harness.make { $0.flushAt = 5 }
        for _ in 0..<5 { analytics.track("Tapped") }
        try await harness.advance(.seconds(1))
        #expect(await poll { harness.transport.uploadedMessages.count == 5 })
        let upload = try #require(harness.transport.uploads.first)
        #expect(upload.request.headers["Content-Encoding"] == "gzip")
        #expect(upload.request.headers["Authorization"] == "Basic " + Data("sdk-test-key:".utf8).base64EncodedString())
        #expect(upload.body?["sentAt"]?.stringValue.flatMap(Timestamp.parseMilliseconds) != nil)
    }

    @Test func consentDeniedMeansNothingOnDiskOrOnTheWire() async throws {
        let analytics = harness.make { $0.defaultConsent = .denied }
        for _ in 0..<10 { analytics.track("Secret") }
        analytics.identify(userId: "u-1", traits: ["email": "a@b.co"])
        let result = await analytics.flushed()
        #expect(result.remaining == 0)
        #expect(analytics.stats.dropped(.consent) == 11)
        #expect(analytics.stats.stored == 0)
        #expect(harness.transport.requestCount == 0)
        analytics.setConsent(.granted)
        analytics.track("Allowed")
        _ = await analytics.flushed()
        #expect(harness.transport.uploadedMessages.count == 1)
        #expect(harness.transport.uploadedMessages.first?["userId"] == nil)
    }

    @Test func revokingConsentPurgesTheQueueAndPersists() async throws {
        harness.transport.setOffline(true)
        do {
            let analytics = harness.make()
            for _ in 0..<7 { analytics.track("Queued") }
            _ = await analytics.flushed()
            #expect(analytics.stats.queuedEvents == 7)
            analytics.setConsent(.denied)
            _ = await analytics.flushed()
            #expect(analytics.stats.queuedEvents == 0)
        }
        harness.transport.setOffline(false)
        let relaunched = harness.make()
        relaunched.track("After relaunch")
        _ = await relaunched.flushed()
        #expect(relaunched.stats.dropped(.consent) == 1)
        #expect(harness.transport.uploadedMessages.isEmpty)
    }

    @Test func serverErrorKeepsTheBatchAndRetriesWithBackoff() async throws {
        harness.transport.script([FakeTransport.status(503), FakeTransport.status(500)])
        let analytics = harness.make()
        analytics.track("Important")
        let first = await analytics.flushed()
        #expect(first.blocked)
        #expect(first.remaining == 1)
        #expect(analytics.stats.retries == 1)
        // While backing off, `flushed()` answers at once instead of waiting out the backoff.
        let during = await analytics.flushed()
        #expect(during.blocked)
        #expect(during.remaining == 1)
        try await harness.advance(.seconds(1))  // attempt 0 waits at most base (1 s)
        #expect(await poll { analytics.stats.retries == 2 })
        try await harness.advance(.seconds(2))  // attempt 1 waits at most 2 s
        #expect(await poll { analytics.stats.sent == 1 })
        let ids = Set(harness.transport.uploads.flatMap(\.messages).compactMap { $0["messageId"]?.stringValue })
        #expect(ids.count == 1, "a retried batch reuses its messageIds")
    }

    @Test func rateLimitHonoursRetryAfter() async throws {
        harness.transport.script([FakeTransport.status(429, headers: ["retry-after": "30"])])
        let analytics = harness.make()
        analytics.track("Busy")
        _ = await analytics.flushed()
        try await harness.advance(.seconds(29))
        #expect(harness.transport.uploads.count == 1)
        try await harness.advance(.seconds(2))
        #expect(await poll { analytics.stats.sent == 1 })
        #expect(harness.transport.uploads.count == 2)
    }

    @Test func tooLargeBatchIsSplitAndAnOversizedEventDropped() async throws {
        // The "collector" takes at most 2 events per batch, and never the event named "Huge".
        harness.transport.setRule { count in count > 2 ? FakeTransport.status(413) : FakeTransport.ok }
        let analytics = harness.make()
        for i in 0..<8 { analytics.track("E\(i)") }
        _ = await analytics.flushed()
        #expect(analytics.stats.sent == 8)
        let delivered = harness.transport.uploads.filter { $0.messages.count <= 2 }.flatMap(\.messages)
        // Up to 4 uploads are in flight, so the halves may arrive in any order: each event once.
        #expect(delivered.compactMap { $0["event"]?.stringValue }.sorted() == (0..<8).map { "E\($0)" })
        harness.transport.setRule { _ in FakeTransport.status(413) }
        analytics.track("Huge")
        _ = await analytics.flushed()
        #expect(analytics.stats.dropped(.tooLarge) == 1)
        #expect(analytics.stats.queuedEvents == 0)
    }

    @Test func unauthorizedStopsSendingAndLogsOnce() async throws {
        harness.transport.setRule { _ in FakeTransport.status(401) }
        let analytics = harness.make()
        analytics.track("One")
        _ = await analytics.flushed()
        analytics.track("Two")
        analytics.flush()
        let result = await analytics.flushed()
        #expect(result.blocked)
        #expect(result.remaining == 2)
        #expect(harness.transport.uploads.count == 1)
        #expect(harness.logs.all.filter { $0.contains("401") }.count == 1)
    }

    @Test func offlineThenOnlineDeliversEverythingOnce() async throws {
        harness.transport.setOffline(true)
        let analytics = harness.make()
        for i in 0..<25 { analytics.track("Offline \(i)") }
        _ = await analytics.flushed()
        #expect(analytics.stats.queuedEvents == 25)
        harness.transport.setOffline(false)
        try await harness.advance(.seconds(2))
        #expect(await poll { analytics.stats.sent == 25 })
        let delivered = harness.transport.uploads.filter { !$0.messages.isEmpty }.suffix(2).flatMap(\.messages)
        #expect(Set(delivered.compactMap { $0["messageId"]?.stringValue }).count == 25)
    }

    @Test func byteCapDropsTheOldest() async throws {
        harness.transport.setOffline(true)
        let analytics = harness.make {
            $0.maximumQueueBytes = 8_000
            $0.writeBufferCount = 1
        }
        for i in 0..<100 { analytics.track("E\(i)", properties: ["pad": .string(String(repeating: "x", count: 100))]) }
        _ = await analytics.flushed()
        let stats = analytics.stats
        #expect(stats.queueBytes <= 8_000)
        #expect(stats.dropped(.queueFull) > 0)
        #expect(stats.dropped(.queueFull) + stats.queuedEvents == 100)
        harness.transport.setOffline(false)
        try await harness.advance(.seconds(2))
        #expect(await poll { analytics.stats.queuedEvents == 0 })
        let names = harness.transport.uploadedMessages.compactMap { $0["event"]?.stringValue }
        // Batches may arrive in any order with several in flight: the newest is kept, the oldest dropped.
        #expect(names.contains("E99"))
        #expect(names.contains("E0") == false)
    }

    @Test func eventsOlderThanTheAgeCapAreDroppedAtLaunch() async throws {
        harness.transport.setOffline(true)
        do {
            let analytics = harness.make { $0.maximumEventAge = .seconds(3600) }
            for _ in 0..<3 { analytics.track("Stale") }
            _ = await analytics.flushed()
            #expect(analytics.stats.queuedEvents == 3)
        }
        harness.clock.advance(by: .seconds(3601))
        harness.transport.setOffline(false)
        let relaunched = harness.make { $0.maximumEventAge = .seconds(3600) }
        relaunched.track("Fresh")
        _ = await relaunched.flushed()
        #expect(relaunched.stats.dropped(.expired) == 3)
        #expect(harness.transport.uploadedMessages.compactMap { $0["event"]?.stringValue } == ["Fresh"])
    }

    @Test func aFullDiskDropsNewEventsCountedAndKeepsWhatIsQueued() async throws {
        harness.transport.setOffline(true)
        let analytics = harness.make {
            $0.maximumQueueFileBytes = 64 * 1024
            $0.maximumQueueBytes = 1 << 30
            $0.writeBufferCount = 1
        }
        for i in 0..<400 {
            analytics.track("Fill \(i)", properties: ["pad": .string(String(repeating: "x", count: 400))])
        }
        _ = await analytics.flushed()
        let full = analytics.stats
        #expect(full.dropped(.storage) > 0)
        #expect(full.stored + full.dropped(.storage) == 400)
        #expect(harness.logs.all.filter { $0.contains("could not be written") }.count == 1)
        harness.transport.setOffline(false)
        try await harness.advance(.seconds(2))
        #expect(await poll { analytics.stats.sent == full.stored })
        let names = harness.transport.uploadedMessages.compactMap { $0["event"]?.stringValue }
        #expect(names.contains("Fill 0"))  // the oldest was kept (batches may arrive in any order)
        #expect(names.count == full.stored)
    }

    @Test func thousandConcurrentTracksLoseNothing() async throws {
        // One upload at a time, so the order in which the fake collector receives batches is the
        // queue's order (with several in flight, only `timestamp` orders events across batches).
        let analytics = harness.make {
            $0.flushAt = 100
            $0.maximumUploadsInFlight = 1
        }
        DispatchQueue.concurrentPerform(iterations: 10) { thread in
            for i in 0..<100 {
                analytics.track("Concurrent", properties: ["thread": .int(Int64(thread)), "i": .int(Int64(i))])
            }
        }
        let result = await analytics.flushed()
        #expect(result.remaining == 0)
        let messages = harness.transport.uploadedMessages
        #expect(messages.count == 1000)
        #expect(Set(messages.compactMap { $0["messageId"]?.stringValue }).count == 1000)
        for thread in 0..<10 {
            let order = messages.filter { $0["properties"]?["thread"] == .int(Int64(thread)) }.compactMap {
                $0["properties"]?["i"]?.intValue
            }
            #expect(order == (0..<100).map(Int64.init), "one thread's events keep their order")
        }
    }

    @Test func propertiesRoundTripExactly() async throws {
        let analytics = harness.make()
        analytics.track(
            "Purchase",
            properties: [
                "price": 19.99, "count": 3, "big": .int(9_007_199_254_740_993),
                "nested": [[1, 2], ["a": nil]], "none": nil, "flag": true,
            ])
        _ = await analytics.flushed()
        let upload = try #require(harness.transport.uploads.first)
        let raw = String(
            decoding: try Gzip.decompress(try #require(upload.request.body), limit: 1 << 20), as: UTF8.self)
        #expect(raw.contains("\"price\":19.99"))
        #expect(raw.contains("\"big\":9007199254740993"))
        let message = try #require(upload.messages.first)
        #expect(
            message["properties"] == [
                "price": 19.99, "count": 3, "big": .int(9_007_199_254_740_993),
                "nested": [[1, 2], ["a": nil]], "none": nil, "flag": true,
            ])
        #expect(message["context"]?["library"]?["name"] == "courier-analytics-swift")
        #expect(message["schemaVersion"] == 1)
        #expect(message["timestamp"] == "2026-11-29T08:00:00.000Z")
    }

    @Test func oversizedEventIsDroppedOnTheClient() async throws {
        let analytics = harness.make()
        analytics.track("Big", properties: ["blob": .string(String(repeating: "x", count: 40_000))])
        analytics.track("Small")
        _ = await analytics.flushed()
        #expect(analytics.stats.dropped(.tooLarge) == 1)
        #expect(harness.transport.uploadedMessages.compactMap { $0["event"]?.stringValue } == ["Small"])
    }

    @Test func identifyPersistsAndResetStartsOver() async throws {
        do {
            let analytics = harness.make()
            analytics.track("Before")
            analytics.identify(userId: "user-42", traits: ["plan": "pro"])
            analytics.track("After")
            _ = await analytics.flushed()
        }
        let relaunched = harness.make()
        relaunched.track("Relaunched")
        relaunched.reset()
        relaunched.track("Logged out")
        _ = await relaunched.flushed()
        let messages = harness.transport.uploadedMessages
        let byName = Dictionary(messages.compactMap { m in m["event"]?.stringValue.map { ($0, m) } }) { a, _ in a }
        #expect(byName["Before"]?["userId"] == nil)
        #expect(byName["After"]?["userId"] == "user-42")
        #expect(byName["Relaunched"]?["userId"] == "user-42")
        #expect(byName["Relaunched"]?["anonymousId"] == byName["Before"]?["anonymousId"])
        #expect(byName["Logged out"]?["userId"] == nil)
        #expect(byName["Logged out"]?["anonymousId"] != byName["Before"]?["anonymousId"])
        #expect(messages.first { $0["type"] == "identify" }?["traits"] == ["plan": "pro"])
    }

    @Test func pluginsEnrichAndDropInOrder() async throws {
        let analytics = harness.make {
            $0.plugins = [
                AnalyticsPlugin(name: "tag") { event in
                    var e = event
                    e.properties["build"] = "beta"
                    return e
                },
                AnalyticsPlugin(name: "filter") { $0.name == "Noise" ? nil : $0 },
            ]
        }
        analytics.track("Signal")
        analytics.track("Noise")
        _ = await analytics.flushed()
        #expect(analytics.stats.dropped(.plugin) == 1)
        #expect(harness.transport.uploadedMessages.map { $0["properties"]?["build"] } == ["beta"])
    }

    @Test func piiIsScrubbedBeforeStorage() async throws {
        let analytics = harness.make { $0.propertyAllowList = ["plan", "note"] }
        analytics.track("Signed Up", properties: ["plan": "pro", "email": "a@b.co", "note": "reach me at a@b.co"])
        _ = await analytics.flushed()
        #expect(
            harness.transport.uploadedMessages.first?["properties"] == ["plan": "pro", "note": "reach me at [email]"])
    }

    @Test func samplingKeepsWholeSessions() async throws {
        let analytics = harness.make {
            $0.sampleRate = 50
            $0.samplingUnit = .session
        }
        for session in 0..<40 {
            for step in 0..<5 { analytics.track("Funnel \(step)", properties: ["session": .int(Int64(session))]) }
            analytics.reset()
            // Wall time only, so sessions start at different instants: no timer is meant to fire.
            harness.clock.advance(by: .milliseconds(10))
        }
        _ = await analytics.flushed()
        let messages = harness.transport.uploadedMessages
        var perSession: [Int64: Int] = [:]
        for m in messages { perSession[m["properties"]?["session"]?.intValue ?? -1, default: 0] += 1 }
        #expect(perSession.values.allSatisfy { $0 == 5 }, "a session is kept whole or not at all")
        #expect(perSession.count > 5 && perSession.count < 35, "\(perSession) \(analytics.stats)")
        #expect(analytics.stats.dropped(.sampled) == (40 - perSession.count) * 5)
        #expect(messages.first?["context"]?["sampling"]?["rate"] == 50.0)
    }

    @Test func killSwitchSurvivesARestartWhileOffline() async throws {
        harness.transport.settings.withLock { $0 = ["enabled": false] }
        do {
            let analytics = harness.make { $0.fetchesRemoteSettings = true }
            #expect(await poll { harness.transport.requestCount >= 1 })
            _ = await analytics.flushed()
            analytics.track("Dropped")
            _ = await analytics.flushed()
            #expect(analytics.stats.dropped(.disabled) == 1)
        }
        harness.transport.settings.withLock { $0 = nil }
        harness.transport.setOffline(true)
        let relaunched = harness.make { $0.fetchesRemoteSettings = true }
        relaunched.track("Still dropped")
        _ = await relaunched.flushed()
        #expect(relaunched.stats.dropped(.disabled) == 1)
        #expect(harness.transport.uploads.isEmpty)
    }

    @Test func eventsTheCollectorRefusedWithItsKillSwitchLeaveTheQueueForGood() async throws {
        // The kill switch goes on at the collector before the SDK has read it in its settings:
        // the refused batch and what is queued behind it are dropped, so nothing tracked during
        // the kill can be sent once the switch is turned off again.
        harness.transport.setRule { _ in FakeTransport.status(403) }
        let analytics = harness.make {
            $0.flushAt = 1_000
            $0.maximumBatchCount = 2
            $0.maximumUploadsInFlight = 1
        }
        for index in 0..<5 { analytics.track("During the kill \(index)") }
        _ = await analytics.flushed()
        #expect(analytics.stats.dropped(.disabled) == 5)
        #expect(analytics.stats.queuedEvents == 0)
        #expect(harness.transport.uploads.count == 1)
    }

    @Test func remoteSettingsChangeFlushAtAndTheAllowList() async throws {
        harness.transport.settings.withLock { $0 = ["enabled": true, "flushAt": 2, "propertyAllowList": ["keep"]] }
        let analytics = harness.make {
            $0.fetchesRemoteSettings = true
            // Each event is stored as it is tracked, with no write-buffer timer: advancing the
            // clock past that timer raced its task's start, since the flush timer already slept
            // on the clock and satisfied the wait for a sleeper.
            $0.writeBufferCount = 1
            $0.writeBufferBurstCount = 1
        }
        // Applied, not only asked for: the answer is read after the request went out.
        #expect(await poll { analytics.remoteSettingsApplied >= 1 })
        _ = await analytics.flushed()
        analytics.track("A", properties: ["keep": 1, "drop": 2])
        analytics.track("B")
        // Two stored events reach the settings' `flushAt`: they go up without the flush timer,
        // which the manual clock never lets fire.
        #expect(await poll { harness.transport.uploadedMessages.count == 2 })
        #expect(harness.transport.uploadedMessages.first?["properties"] == ["keep": 1])
    }

    @Test func nextLaunchSendsWhatTheLastProcessLeft() async throws {
        harness.transport.setOffline(true)
        do {
            let analytics = harness.make()
            for _ in 0..<30 { analytics.track("Left behind") }
            _ = await analytics.flushed()
            #expect(analytics.stats.queuedEvents == 30)
        }
        harness.transport.setOffline(false)
        let relaunched = harness.make()
        #expect(await poll { relaunched.stats.sent == 30 })
        #expect(relaunched.stats.tracked == 0)
    }

    @Test func corruptQueueIsMovedAsideNotACrash() async throws {
        // A file that is not a database where the queue should be (written before any instance
        // has it open, so no connection can write valid pages back over it).
        let folder = harness.directory.appendingPathComponent(Analytics.storageFolderName(writeKey: "sdk-test-key"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 0xAB, count: 8192).write(to: folder.appendingPathComponent("queue.sqlite"))
        let analytics = harness.make()
        analytics.track("After corruption")
        _ = await analytics.flushed()
        #expect(harness.transport.uploadedMessages.last?["event"] == "After corruption")
        #expect(harness.queueFiles.contains { $0.lastPathComponent.hasPrefix("queue.sqlite.corrupt-") })
        #expect(harness.logs.all.contains { $0.contains("damaged") })
    }

    /// After an app downgrade the queue file has a schema this build does not know: it is kept as
    /// it is (with the consent and ids in it, for when the newer build returns), never moved aside
    /// as if it were damaged; this launch works from memory.
    @Test func aQueueFromANewerBuildIsKeptNotMovedAside() async throws {
        let folder = harness.directory.appendingPathComponent(Analytics.storageFolderName(writeKey: "sdk-test-key"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("queue.sqlite").path
        do {
            let db = try Database(path: path)
            try db.execute("CREATE TABLE courier_migrations(name TEXT PRIMARY KEY, applied_at INTEGER)")
            try db.execute("INSERT INTO courier_migrations(name) VALUES ('queue v9 from a newer build')")
        }
        let analytics = harness.make()
        analytics.track("After downgrade")
        _ = await analytics.flushed()
        #expect(harness.transport.uploadedMessages.last?["event"] == "After downgrade")
        #expect(!harness.queueFiles.contains { $0.lastPathComponent.contains("corrupt") })
        #expect(harness.logs.all.contains { $0.contains("newer build") })
        let db = try Database(path: path)
        #expect(
            try db.query("SELECT name FROM courier_migrations") { $0.text(0) ?? "" } == ["queue v9 from a newer build"])
    }

    @Test func aBufferFilledUpKeepsItsTimerInsteadOfMakingANewOne() async throws {
        // One timer per interval, not a task made and cancelled every `writeBufferCount` events:
        // the timer started by the first event still fires 250 ms after it.
        let analytics = harness.make {
            $0.writeBufferCount = 16
            $0.writeBufferBurstCount = 16  // groups that do not grow
            $0.flushAt = 1_000  // no upload, whose first step would write the buffer
        }
        for _ in 0..<20 { analytics.track("First") }
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(200))
        for _ in 0..<20 { analytics.track("Second") }
        #expect(await poll { analytics.stats.stored == 32 })
        try await harness.advance(.milliseconds(60))
        #expect(await poll { analytics.stats.stored == 40 })
    }

    @Test func aBurstIsWrittenInGrowingGroupsAndTheTimerBringsThemBack() async throws {
        let analytics = harness.make {
            $0.writeBufferCount = 4
            $0.writeBufferBurstCount = 16
            $0.flushAt = 10_000  // no upload, whose first step would write the buffer
            // Drops the marker: once it is dropped, every call before it has been recorded.
            $0.plugins = [AnalyticsPlugin(name: "marker") { $0.name == "Marker" ? nil : $0 }]
        }
        // Groups of 4, 8, 16 and 16 are written as they fill; 6 events wait for the timer (in
        // groups of 4 that never grow, 48 would be written and 2 would wait).
        for _ in 0..<50 { analytics.track("Burst") }
        analytics.track("Marker")
        #expect(await poll { analytics.stats.dropped(.plugin) == 1 })
        #expect(analytics.stats.stored == 44)
        try await harness.clock.waitForSleepers(1)
        try await harness.advance(.milliseconds(250))
        #expect(await poll { analytics.stats.stored == 50 })
        // After the timer's write the groups are back to 4: four calls are written at once.
        for _ in 0..<4 { analytics.track("Calm") }
        analytics.track("Marker")
        #expect(await poll { analytics.stats.dropped(.plugin) == 2 })
        #expect(analytics.stats.stored == 54)
    }

    @Test func aSteadyStreamOfCallsDoesNotStarveTheTimers() async throws {
        // A caller that never pauses keeps the mailbox non-empty. The pipeline must still give its
        // other jobs (timers, upload results) a turn: tasks that never run are never freed, and
        // that was the memory that grew with every event.
        let analytics = harness.make { $0.maximumPendingCalls = 1_000 }
        let stop = Mutex(false)
        let producer = Task.detached {
            while !stop.withLock({ $0 }) { analytics.track("Flood") }
        }
        defer { stop.withLock { $0 = true } }
        try await harness.clock.waitForSleepers(1, timeout: .seconds(10))
        stop.withLock { $0 = true }
        await producer.value
    }

    @Test func drainBlocksUntilUploadedForCommandLineTools() async throws {
        let analytics = harness.make()
        analytics.track("CLI")
        let result = await runOffPool { analytics.drain(timeout: .seconds(30)) }
        #expect(result?.remaining == 0)
        #expect(harness.transport.uploadedMessages.count == 1)
    }
}
