import Analytics
import CourierCore
import CourierTesting
import Foundation
import Testing

/// One writer per queue file, the newest instance: a new instance with the same write key
/// retires the one it replaces and carries on with its file (queued events, consent, ids); an
/// upload the old one had in flight does not keep the file from it; another process holding the
/// folder leaves an instance in memory.
@Suite(.timeLimit(.minutes(1)))
struct QueueOwnershipTests {
    let harness: SDKHarness

    init() throws { harness = try SDKHarness() }

    private var folder: URL {
        harness.directory.appendingPathComponent(Analytics.storageFolderName(writeKey: "sdk-test-key"))
    }

    private func uploadedEvents() -> [String] {
        harness.transport.uploadedMessages.compactMap { $0["event"]?.stringValue }
    }

    private func logs(containing text: String) -> [String] {
        harness.logs.all.filter { $0.contains(text) }
    }

    @Test func aNewInstanceRetiresTheOneItReplacesAndCarriesOnWithItsFile() async throws {
        // Written to the file at once and not uploaded until asked: no timer, no retry.
        let first = harness.make {
            $0.defaultConsent = .denied
            $0.flushAt = 1_000
            $0.writeBufferCount = 1
            $0.writeBufferBurstCount = 1
        }
        first.setConsent(.granted)
        first.identify(userId: "user-1")
        first.track("First's")
        #expect(await poll { first.stats.stored == 2 })

        // The app configures again while it still holds the first instance.
        let second = harness.make { $0.defaultConsent = .denied }
        second.track("Second's")
        _ = await second.flushed()
        #expect(await poll { second.stats.sent == 3 })
        // The first instance's events went once, by the second, which kept its consent and ids.
        #expect(uploadedEvents().sorted() == ["First's", "Second's"])
        let secondsEvent = try #require(harness.transport.uploadedMessages.first { $0["event"] == "Second's" })
        #expect(secondsEvent["userId"] == "user-1")

        first.track("Late")
        #expect(first.stats.dropped(.replaced) == 1)
        #expect(await first.flushed().blocked)
        #expect(logs(containing: "replaced this one").count == 1)
        #expect(logs(containing: "in memory") == [])
    }

    @Test func anUploadInFlightDoesNotKeepTheFileFromTheNextInstance() async throws {
        harness.transport.holdUploads()
        do {
            let released = harness.make()
            released.track("Held")
            released.flush()
            #expect(await poll { harness.transport.uploadsHeld == 1 })
        }
        // The released instance's pipeline closes the file although its upload is unanswered.
        let replacement = harness.make()
        replacement.track("After")
        replacement.flush()
        // One more held upload, or two: the launch's ("Held" again) and the flush's ("After"),
        // unless the flush came first and both went in one batch.
        #expect(await poll { harness.transport.uploadsHeld >= 2 })
        harness.transport.releaseHeldUploads()
        #expect(await poll { replacement.stats.sent == 2 })
        #expect(logs(containing: "in memory") == [])
        // The held batch was still queued when the replacement opened the file: it went again
        // (the released instance's answer is recorded on a task of its own, whenever it runs).
        #expect(await poll { uploadedEvents().filter { $0 == "Held" }.count == 2 })
        #expect(uploadedEvents().filter { $0 == "After" }.count == 1)
    }

    @Test func anInstanceMadeRightAfterTheAppReleasedTheLastTakesOverItsFile() async throws {
        harness.transport.setOffline(true)
        do {
            let released = harness.make()
            for _ in 0..<3 { released.track("Left behind") }
            _ = await released.flushed()
            #expect(released.stats.queuedEvents == 3)
        }
        harness.transport.setOffline(false)
        // Made at once: the released instance's pipeline may still be closing the file; this one
        // waits for it rather than finding the file locked.
        let replacement = harness.make()
        replacement.track("After")
        _ = await replacement.flushed()  // writes "After" from the buffer, whenever the launch's upload began
        #expect(await poll { replacement.stats.sent == 4 })
        #expect(logs(containing: "in memory") == [])
        #expect(Set(uploadedEvents()) == ["Left behind", "After"])
    }

    #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))  // no lock there (docs/analytics-sdk.md)
        @Test func anotherProcessHoldingTheFolderLeavesThisInstanceInMemory() async throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // flock excludes another descriptor of this process as it would another process.
            let otherProcess = try FileLock(path: folder.appendingPathComponent("queue.lock").path)
            let analytics = harness.make()
            analytics.track("From the other process")
            _ = await analytics.flushed()
            #expect(uploadedEvents() == ["From the other process"])
            #expect(logs(containing: "another process").count == 1)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("queue.sqlite").path))
            withExtendedLifetime(otherProcess) {}
        }

        @Test func eventsAnInstanceInMemoryHeldWhenReplacedAreCountedNotLostSilently() async throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let otherProcess = try FileLock(path: folder.appendingPathComponent("queue.lock").path)
            harness.transport.setOffline(true)
            let first = harness.make()
            first.track("A")
            first.track("B")
            _ = await first.flushed()
            #expect(first.stats.queuedEvents == 2)
            let second = harness.make()
            #expect(await poll { first.stats.dropped(.replaced) == 2 })
            withExtendedLifetime((otherProcess, second)) {}
        }
    #endif

    @Test func aFolderWrittenWithATrailingSlashIsTheSameFolder() async throws {
        let first = harness.make()
        let second = harness.make {
            $0.storageDirectory = URL(fileURLWithPath: harness.directory.path, isDirectory: true)
        }
        #expect(second.configuration.storageDirectory?.absoluteString.hasSuffix("/") == true)
        second.track("Second's")
        _ = await second.flushed()
        #expect(second.stats.sent == 1)
        first.track("Late")
        #expect(first.stats.dropped(.replaced) == 1)
        #expect(logs(containing: "in memory") == [])
    }

    @Test func instancesWithOtherWriteKeysOrFoldersEachKeepTheirOwnFile() async throws {
        let one = harness.make()
        let other = harness.make { $0.writeKey = "another-key" }
        let elsewhere = try SDKHarness()
        let third = elsewhere.make()
        for analytics in [one, other, third] {
            analytics.track("Own")
            _ = await analytics.flushed()
            #expect(analytics.stats.sent == 1)
        }
        #expect(logs(containing: "replaced") == [])
        #expect(harness.queueFiles.filter { $0.lastPathComponent == "queue.sqlite" }.count == 2)
        #expect(elsewhere.queueFiles.contains { $0.lastPathComponent == "queue.sqlite" })
    }
}
