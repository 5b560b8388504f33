import CourierCore
import CourierTesting
@testable import Sync
import SyncWire
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SyncCycleTests {
    @Test(arguments: StoreBackend.allCases)
    func recordsCreatedOfflineReachAnotherClientThroughOneCycleEach(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend)
        defer { harness.stop() }
        let (alice, transport) = try harness.client("alice")
        let (phone, _) = try harness.client("phone")
        transport.set(.offline)
        let id = try await alice.create("notes", fields: ["title": "Groceries", "done": false])
        try await alice.set("notes", id: id, fields: ["done": true])
        #expect(try await alice.record("notes", id: id)?.isPending == true)
        await #expect(throws: SyncError.self) { try await alice.sync() }
        #expect(try await alice.pendingOperationCount() == 2)

        transport.set(.none)
        let report = try await alice.sync(.networkRestored)
        #expect(report.applied == 2)
        #expect(try await alice.pendingOperationCount() == 0)
        let stored = try #require(try await alice.record("notes", id: id))
        #expect(stored.version == 2 && !stored.isPending)

        try await phone.sync(.foreground)
        let copy = try #require(try await phone.record("notes", id: id))
        #expect(copy.fields == ["title": "Groceries", "done": true])
        #expect(copy.version == 2)

        try await phone.delete("notes", id: id)
        try await phone.sync()
        try await alice.sync()
        #expect(try await alice.record("notes", id: id) == nil)
        #expect(try await alice.checksum() == harness.serverChecksum())
        #expect(try await phone.checksum() == harness.serverChecksum())
    }

    @Test(arguments: StoreBackend.allCases)
    func aLostAnswerIsRetriedWithTheSameOpIDsAndAppliedOnce(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend)
        defer { harness.stop() }
        let (alice, transport) = try harness.client("alice")
        let id = try await alice.create("notes", fields: ["title": "once"])
        transport.set(.loseAnswer)
        await #expect(throws: SyncError.self) { try await alice.sync() }
        // The server applied it; the client does not know.
        #expect(try await harness.serverSnapshot().records.map(\.version) == [1])
        transport.set(.none)
        let report = try await alice.sync()
        #expect(report.applied == 1)
        #expect(try await harness.serverSnapshot().records.map(\.version) == [1])
        #expect(try await alice.record("notes", id: id)?.version == 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func aClientKilledBeforeItRecordedTheAnswerResumesFromItsFile(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend)
        defer { harness.stop() }
        let transport = harness.transport()
        var (alice, _) = try harness.client("alice", transport: transport)
        let id = try await alice.create("notes", fields: ["title": "survives"])
        transport.set(.loseAnswer)
        await #expect(throws: SyncError.self) { try await alice.sync() }
        // "Kill": drop the client and open its file again.
        (alice, _) = try harness.client("alice", transport: transport)
        transport.set(.none)
        try await alice.sync()
        #expect(try await alice.record("notes", id: id)?.version == 1)
        #expect(try await alice.pendingOperationCount() == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func observersSeeLocalWritesAndPulledChangesAsTheyCommit(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend)
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        let (phone, _) = try harness.client("phone")
        let changes = alice.changes()
        var results = alice.observe(collection: "notes").makeAsyncIterator()
        #expect(await results.next() == [])
        let id = try await alice.create("notes", fields: ["title": "a"])
        #expect(await results.next()?.map(\.fields) == [["title": "a"]])
        var changeIterator = changes.makeAsyncIterator()
        #expect(
            await changeIterator.next() == RecordChange(collection: "notes", id: id, deleted: false, origin: .local))
        try await alice.sync()
        try await phone.sync()
        try await phone.set("notes", id: id, fields: ["title": "b"])
        try await phone.sync()
        try await alice.sync()
        #expect(
            await changeIterator.next() == RecordChange(collection: "notes", id: id, deleted: false, origin: .remote))
        var latest: [LocalRecord]?
        while let rows = await results.next() {
            latest = rows
            if rows.first?.fields["title"] == "b" { break }
        }
        #expect(latest?.first?.version == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func anEmptiedOplogNeverHandsOutASequenceTheServerHasSeen(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend)
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        for round in 0..<3 {
            let id = try await alice.create("notes", fields: ["round": .int(Int64(round))])
            // A reused sequence would be taken for an old operation and answered with a conflict.
            let report = try await alice.sync()
            #expect(report.applied == 1 && report.conflicts == 0)
            #expect(try await alice.record("notes", id: id)?.version == 1)
        }
        #expect(try await harness.serverSnapshot().records.count == 3)
    }

    @Test func anObserverReadingOnlyChangedRecordsEndsAtTheCollectionsContents() async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        var results = alice.observe(collection: "notes").makeAsyncIterator()
        #expect(await results.next() == [])
        var random = SeededGenerator(state: 7)
        for step in 0..<1_500 {
            let id = "n-\(Int.random(in: 0..<300, using: &random))"
            if step % 5 == 4, try await alice.record("notes", id: id) != nil {
                try await alice.delete("notes", id: id)
            } else {
                try await alice.set("notes", id: id, fields: ["step": .int(Int64(step))])
            }
            try await alice.set("other", id: id, fields: ["ignored": true])
        }
        let expected = try await alice.records("notes")
        var latest: [LocalRecord] = []
        while latest != expected, let rows = await results.next() { latest = rows }
        #expect(latest == expected)
        #expect(latest.map(\.id) == latest.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func anObserverReadsWhenAskedCoveringEveryCommitSinceAndUnsubscribesWhenReleased() async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        do {
            var results = alice.observe(collection: "notes").makeAsyncIterator()
            #expect(await results.next() == [])
            #expect(await alice.signals.observerCount == 1)
            // Nothing is read while the consumer is away; its next value covers all 50 commits.
            for index in 0..<50 { try await alice.set("notes", id: "n-\(index)", fields: ["i": .int(Int64(index))]) }
            #expect(await results.next()?.count == 50)
        }
        #expect(await alice.signals.observerCount == 0)
    }

    @Test func aBatchIsOneCommitThatObserversSeeOnceAndAFailedDeleteWritesNothing() async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        var results = alice.observe(collection: "notes").makeAsyncIterator()
        #expect(await results.next() == [])
        try await alice.write(
            (0..<100).map { .set(collection: "notes", id: "n-\($0)", fields: ["i": .int(Int64($0))]) })
        // One commit: the observer's next answer already holds every record of the batch.
        #expect(await results.next()?.count == 100)
        #expect(try await alice.pendingOperationCount() == 100)

        await #expect(throws: SyncError.self) {
            try await alice.write([.delete(collection: "notes", id: "n-1"), .delete(collection: "notes", id: "absent")])
        }
        #expect(try await alice.record("notes", id: "n-1") != nil, "the batch rolled back as a whole")
        #expect(try await alice.pendingOperationCount() == 100)

        try await alice.write([
            .delete(collection: "notes", id: "n-1"), .set(collection: "notes", id: "n-2", fields: ["i": nil]),
        ])
        #expect(await results.next()?.count == 99)
        let report = try await alice.sync()
        #expect(
            report.applied == 102 && report.conflicts == 0 && report.rejected == 0, "one operation per write: \(report)"
        )
        #expect(try await harness.serverSnapshot().records.filter { !$0.deleted }.count == 99)
    }

    @Test func aLocalWriteHandsItsObserversTheRecordAsCommittedAndAPullIsReadBack() async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        let (phone, _) = try harness.client("phone")
        let (signals, take) = await alice.signals.subscribe("notes")
        defer { withExtendedLifetime(signals) {} }  // a released stream unsubscribes
        #expect(take() == .all)
        try await alice.set("notes", id: "n", fields: ["a": 1, "b": "x"])
        try await alice.sync()
        _ = take()
        // A partial update merges with the stored fields; `null` removes one.
        try await alice.set("notes", id: "n", fields: ["b": nil, "c": true])
        let stored = try #require(try await alice.record("notes", id: "n"))
        #expect(stored.fields == ["a": 1, "c": true] && stored.version == 1 && stored.isPending)
        #expect(take() == .records(["n": .state(stored)]), "the observer needs no read of its own")
        try await alice.delete("notes", id: "n")
        #expect(take() == .records(["n": .state(nil)]))

        try await alice.sync()
        try await phone.sync()
        try await phone.set("notes", id: "p", fields: ["from": "phone"])
        try await phone.sync()
        _ = take()
        try await alice.sync()
        // The writer of a pull does not say, so the observer reads the record.
        #expect(take() == .records(["p": .unread]))

        var results = alice.observe(collection: "notes").makeAsyncIterator()
        #expect(await results.next() == [try #require(try await alice.record("notes", id: "p"))])
        try await alice.write([
            .set(collection: "notes", id: "q", fields: ["i": 1]), .set(collection: "notes", id: "q", fields: ["i": 2]),
            .delete(collection: "notes", id: "p"),
        ])
        #expect(await results.next() == [try #require(try await alice.record("notes", id: "q"))])
        #expect(try await alice.records("notes").map(\.fields) == [["i": 2]])
    }

    @Test(arguments: StoreBackend.allCases)
    func eachOperationReportsItsOutcome(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend)
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        var outcomes = alice.outcomes().makeAsyncIterator()
        let id = try await alice.create("notes", fields: ["title": "x"])
        try await alice.sync()
        let outcome = await outcomes.next()
        #expect(outcome?.recordID == id)
        #expect(outcome?.result == .applied(version: 1))
    }

    @Test(arguments: StoreBackend.allCases)
    func aPokeLongPollWakesTheOtherClientWhichThenSyncs(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend)
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        let (phone, _) = try harness.client("phone")
        var phoneChanges = phone.changes().makeAsyncIterator()
        let watcher = Task { await phone.watchPokes() }
        defer { watcher.cancel() }
        // The long-poll is waiting on the server's (manual) clock for its timeout.
        try await harness.clock.waitForSleepers(1)
        let id = try await alice.create("notes", fields: ["title": "poked"])
        try await alice.sync()
        let change = await phoneChanges.next()
        #expect(change == RecordChange(collection: "notes", id: id, deleted: false, origin: .remote))
    }
}
