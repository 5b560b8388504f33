import AnalyticsCollector
import CourierCore
import Testing

struct EventStoreTests {
    func message(_ id: String, key: String = "k", at time: Int64 = 1_000) -> PreparedMessage {
        PreparedMessage(
            writeKey: key, messageId: id, type: "track", receivedAt: time,
            payload: JSONWriter.encode(["messageId": .string(id)]))
    }

    @Test(arguments: StoreBackend.allCases)
    func duplicatesWithinTheWindowAreSkipped(backend: StoreBackend) throws {
        let store = try backend.makeStore()
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

    @Test(arguments: StoreBackend.allCases)
    func pruningForgetsOnlyOldIds(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        _ = try store.commit([[message("old", at: 1_000), message("new", at: 9_000)]], dedupeCutoff: 0)
        #expect(try store.pruneSeenMessages(before: 5_000) == 1)
        let again = try store.commit([[message("old", at: 9_500), message("new", at: 9_500)]], dedupeCutoff: 0)
        #expect(again == [CommitOutcome(stored: 1, duplicates: 1, storedBytes: 19)])
    }

    @Test(arguments: StoreBackend.allCases)
    func keysetPaginationReadsEveryEventOnce(backend: StoreBackend) throws {
        let store = try backend.makeStore()
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

    @Test(arguments: StoreBackend.allCases)
    func settingsRoundTrip(backend: StoreBackend) throws {
        let store = try backend.makeStore()
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
        let store = try StoreBackend.file.makeStore(options: options)
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
        let answer = CollectorError(error)
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
