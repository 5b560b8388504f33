import AnalyticsCollector
import CourierCore
import Testing
import CourierHTTP

struct EventStoreTests {
    func message(_ id: String, key: String = "k", at time: Int64 = 1_000) -> PreparedMessage {
        PreparedMessage(
            writeKey: key, messageId: id, type: "track", receivedAt: time,
            payload: JSONWriter.encode(["messageId": .string(id)]))
    }

    @Test(arguments: CollectorBackend.allCases)
    func duplicatesWithinTheWindowAreSkipped(backend: CollectorBackend) async throws {
        let store = try await backend.makeEventStore()
        try store.registerProject(writeKey: "k")
        try store.registerProject(writeKey: "other")
        let first = try store.commit([[message("a"), message("b")], [message("b"), message("c")]], dedupeCutoff: 0)
        #expect(
            first == [
                CommitOutcome(stored: 2, duplicates: 0, storedBytes: 34),
                CommitOutcome(stored: 1, duplicates: 1, storedBytes: 17),
            ])
        // The same ids under another write key are different messages.
        let other = try store.commit([[message("a", key: "other")]], dedupeCutoff: 0)
        #expect(other == [CommitOutcome(stored: 1, duplicates: 0, storedBytes: 17)])
        // After the window, a seen id is stored again.
        let later = try store.commit([[message("a", at: 90_000)]], dedupeCutoff: 50_000)
        #expect(later == [CommitOutcome(stored: 1, duplicates: 0, storedBytes: 17)])
        #expect(try store.usage() == ["k": 17 * 4, "other": 17])
        #expect(try store.events(writeKey: "k", after: 0, limit: 100).events.count == 4)
    }

    /// Ids are compared as bytes, as the database's unique key compares them: two spellings of
    /// one accented text (composed, and with a combining mark) are two messages on both backends.
    @Test(arguments: CollectorBackend.allCases)
    func messageIdsAreTheSameOnlyByteForByte(backend: CollectorBackend) async throws {
        let store = try await backend.makeEventStore()
        try store.registerProject(writeKey: "k")
        let composed = message("caf\u{E9}")
        let decomposed = message("cafe\u{301}")
        let outcome = try store.commit([[composed], [decomposed], [composed]], dedupeCutoff: 0)
        #expect(outcome.map(\.stored) == [1, 1, 0])
        #expect(outcome.map(\.duplicates) == [0, 0, 1])
        #expect(try store.events(writeKey: "k", after: 0, limit: 100).events.count == 2)
    }

    @Test(arguments: CollectorBackend.allCases)
    func pruningDropsWholePartitionsAndKeepsTheWindowExact(backend: CollectorBackend) async throws {
        // A 80 s window: partitions of 10 s.
        let store = try await backend.makeEventStore(dedupeWindow: .seconds(80))
        _ = try store.commit([[message("old", at: 1_000), message("new", at: 19_000)]], dedupeCutoff: 0)
        // The partition [0, 10 s) ended before 15 s: dropped; [10 s, 20 s) is kept.
        #expect(try store.pruneSeenMessages(before: 15_000) == 1)
        let again = try store.commit([[message("old", at: 19_500), message("new", at: 19_500)]], dedupeCutoff: 15_000)
        #expect(again == [CommitOutcome(stored: 1, duplicates: 1, storedBytes: 19)])
    }

    @Test(arguments: CollectorBackend.allCases)
    func theWindowsEdgeIsExactToTheMillisecond(backend: CollectorBackend) async throws {
        let store = try await backend.makeEventStore(dedupeWindow: .seconds(80))
        _ = try store.commit([[message("edge", at: 50_000)]], dedupeCutoff: 0)
        // Still inside the window when the cutoff is the very millisecond it was received, even
        // though nothing was pruned: the event row's own `receivedAt` decides.
        #expect(
            try store.commit([[message("edge", at: 130_000)]], dedupeCutoff: 50_000)
                == [CommitOutcome(stored: 0, duplicates: 1, storedBytes: 0)])
        // One millisecond later it is outside, and stored again; the new copy is remembered.
        #expect(
            try store.commit([[message("edge", at: 130_001)]], dedupeCutoff: 50_001)
                == [CommitOutcome(stored: 1, duplicates: 0, storedBytes: 20)])
        #expect(
            try store.commit([[message("edge", at: 130_002)]], dedupeCutoff: 50_002)
                == [CommitOutcome(stored: 0, duplicates: 1, storedBytes: 0)])
    }

    /// `eagerly`: the server fills the index before it listens; otherwise the first commit does.
    @Test(arguments: [false, true])
    func dedupeSurvivesARestartAndForgetsWhatTheWindowLeft(eagerly: Bool) throws {
        let path = try CollectorBackend.temporaryPath()
        do {
            let store = try SQLiteEventStore(path: path, dedupeWindow: .seconds(80))
            _ = try store.commit(
                [[message("early", at: 1_000)], (0..<50).map { message("m\($0)", at: 60_000) }], dedupeCutoff: 0)
        }
        // A new store on the same file (a restarted collector) rebuilds its memory from the events.
        let reopened = try SQLiteEventStore(path: path, dedupeWindow: .seconds(80))
        if eagerly { try reopened.loadDedupeIndex(since: 5_000) }
        let replay = try reopened.commit(
            [
                (0..<50).map { message("m\($0)", at: 70_000) } + [
                    message("early", at: 70_000), message("fresh", at: 70_000),
                ]
            ],
            dedupeCutoff: 5_000)
        // The 50 are duplicates; "early" fell out of the window (received before the cutoff).
        #expect(replay == [CommitOutcome(stored: 2, duplicates: 50, storedBytes: 42)])
    }

    @Test func aRolledBackCommitLeavesNothingInTheDedupeMemory() throws {
        var options = Database.Options()
        options.maximumPageCount = 40
        let store = try CollectorBackend.file.makeStore(options: options)
        let big = Array(String(repeating: "x", count: 400).utf8)
        var failed: [PreparedMessage] = []
        for round in 0..<1000 {
            let batch = (0..<20).map { i in
                PreparedMessage(writeKey: "k", messageId: "r\(round)-\(i)", type: "track", receivedAt: 1, payload: big)
            }
            do {
                _ = try store.commit([batch], dedupeCutoff: 0)
            } catch {
                failed = batch
                break
            }
        }
        let first = try #require(failed.first)
        // The failed batch's ids were never stored, so they must not count as seen: a small one fits.
        let small = PreparedMessage(
            writeKey: "k", messageId: first.messageId, type: "track", receivedAt: 1, payload: [])
        #expect(try store.commit([[small]], dedupeCutoff: 0) == [CommitOutcome(stored: 1, duplicates: 0)])
    }

    @Test func pruneUnderLoadLosesNoEventAndStoresNoneTwice() async throws {
        let store = try CollectorBackend.file.makeStore(dedupeWindow: .seconds(8))
        // Writers commit batches received at rising times (each id twice) while a pruner keeps
        // dropping partitions behind the window.
        try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    var stored = 0
                    for round in 0..<50 {
                        let now = Int64(round * 1_000)
                        let batch = (0..<20).map { message("w\(writer)-\(round)-\($0)", at: now) }
                        for outcome in try store.commit([batch, batch], dedupeCutoff: now - 8_000) {
                            stored += outcome.stored
                        }
                    }
                    return stored
                }
            }
            group.addTask {
                for round in 0..<200 { _ = try store.pruneSeenMessages(before: Int64(round * 250) - 8_000) }
                return 0
            }
            var total = 0
            for try await stored in group { total += stored }
            #expect(total == 4 * 50 * 20)
        }
        var ids: [String] = []
        var cursor: Int64 = 0
        while true {
            let page = try store.events(writeKey: "k", after: cursor, limit: 1000)
            ids += page.events.compactMap { $0.payload["messageId"]?.stringValue }
            guard let next = page.nextCursor else { break }
            cursor = next
        }
        #expect(ids.count == 4 * 50 * 20)
        #expect(Set(ids).count == ids.count)
    }

    @Test(arguments: CollectorBackend.allCases)
    func keysetPaginationReadsEveryEventOnce(backend: CollectorBackend) async throws {
        let store = try await backend.makeEventStore()
        _ = try store.commit([(0..<25).map { message("m\($0)") }, [message("x", key: "other")]], dedupeCutoff: 0)
        var seen: [String] = []
        var cursor: Int64 = 0
        var pages = 0
        while true {
            let page = try store.events(writeKey: "k", after: cursor, limit: 10)
            seen += page.events.compactMap { $0.payload["messageId"]?.stringValue }
            pages += 1
            guard let next = page.nextCursor else { break }
            cursor = next
        }
        #expect(seen == (0..<25).map { "m\($0)" })
        #expect(pages == 3)
    }

    @Test(arguments: CollectorBackend.allCases)
    func settingsRoundTrip(backend: CollectorBackend) async throws {
        let store = try await backend.makeEventStore()
        #expect(try store.settings(writeKey: "k") == nil)
        try store.registerProject(writeKey: "k")
        #expect(try store.settings(writeKey: "k") == ProjectSettings())
        var settings = ProjectSettings()
        settings.enabled = false
        settings.sampleRate = 12.5
        settings.propertyAllowList = ["plan"]
        try store.saveSettings(settings, writeKey: "k")
        try store.registerProject(writeKey: "k")
        #expect(try store.settings(writeKey: "k") == settings)
    }

    @Test func aFullDiskFailsTheCommitCleanly() throws {
        var options = Database.Options()
        options.maximumPageCount = 40
        let store = try CollectorBackend.file.makeStore(options: options)
        var committed = 0
        var failure: EventStoreError?
        for round in 0..<1000 {
            let batch = (0..<20).map { i in
                PreparedMessage(
                    writeKey: "k", messageId: "r\(round)-\(i)", type: "track", receivedAt: 1,
                    payload: Array(String(repeating: "x", count: 400).utf8))
            }
            do {
                _ = try store.commit([batch], dedupeCutoff: 0)
                committed += 20
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure)
        #expect(error.kind == .full)
        // What a client is told names the kind, never the store's own text.
        let answer = HTTPError(error)
        #expect(answer.code == .storageUnavailable)
        #expect(answer.status == 503)
        #expect(answer.message == "the event store is full; nothing was stored")
        // The failed batch left nothing behind; everything acknowledged before is intact.
        var count = 0
        var cursor: Int64 = 0
        while true {
            let page = try store.events(writeKey: "k", after: cursor, limit: 1000)
            count += page.events.count
            guard let next = page.nextCursor else { break }
            cursor = next
        }
        #expect(count == committed)
    }
}
