import AnalyticsCollector
import CourierCore
import CourierPostgres
import CourierTesting
import Foundation
import Testing

/// What collector instances sharing one PostgreSQL database must not get wrong: dedupe across
/// instances, and an event that commits late is never skipped by the `after=` cursor.
@Suite(.timeLimit(.minutes(2)))
struct PostgresEventStoreTests {
    func message(_ id: String, at time: Int64 = 1_000) -> PreparedMessage {
        PreparedMessage(
            writeKey: "k", messageId: id, type: "track", receivedAt: time,
            payload: JSONWriter.encode(["messageId": .string(id)]))
    }

    @Test func aMessageStoredThroughOneInstanceIsADuplicateOnAnother() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let (first, second) = try await offPool {
            (try PostgresEventStore(url: url, connections: 2), try PostgresEventStore(url: url, connections: 2))
        }
        #expect(try first.commit([[message("a")]], dedupeCutoff: 0).first?.stored == 1)
        #expect(try second.commit([[message("a"), message("b")]], dedupeCutoff: 0).first?.duplicates == 1)
        #expect(try first.events(writeKey: "k", after: 0, limit: 10).events.map(\.id) == [1, 2])
        #expect(try second.latestEventID(writeKey: "k") == 2)
    }

    /// A commit that took event id 1 and has not finished holds the next commit to the same
    /// project back, so id 2 cannot become visible first.
    @Test func anEventCommittedLateIsNeverSkippedByTheCursor() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let store = try await offPool { try PostgresEventStore(url: url, connections: 2) }
        try store.registerProject(writeKey: "k")
        let slow = try await offPool { HandedOver(try PostgresConnection(url: url)) }
        let first = try await offPool {
            try slow.value.execute("BEGIN")
            let id = try slow.value.query(
                "UPDATE projects SET last_event_id = last_event_id + 1 WHERE write_key = 'k' RETURNING last_event_id"
            ) { $0.int(0) }.first
            try slow.value.run(
                "INSERT INTO events(write_key, id, message_id, type, received_at, payload) VALUES ('k', $1, 'late', 'track', 1, '{}')",
                [.integer(id ?? 0)])
            return id
        }
        #expect(first == 1)
        let finished = CompletionFlag()
        let second = Task {
            defer { finished.set() }
            return try await offPool { try store.commit([[message("next")]], dedupeCutoff: 0) }
        }
        // Either the second waits on the first's lock (right) or it has already committed (the trap).
        #expect(await poll { await TestPostgres.isWaitingOnALock(url: url, unless: finished) })
        #expect(!finished.isSet)
        #expect(try store.events(writeKey: "k", after: 0, limit: 10).events.isEmpty)
        try await offPool { try slow.value.execute("COMMIT") }
        _ = try await second.value
        #expect(try store.events(writeKey: "k", after: 0, limit: 10).events.map(\.id) == [1, 2])
    }
}

/// Text PostgreSQL cannot hold (U+0000) is refused where it comes in, on both engines, never cut
/// short on its way to the database.
@Suite(.timeLimit(.minutes(2)))
struct NullCharacterTests {
    @Test(arguments: [CollectorBackend.memory, .postgres])
    func aMessageIdHoldingUPlus0000IsRefusedAloneAndTheRestStored(backend: CollectorBackend) async throws {
        let harness = try await CollectorHarness(backend: backend)
        defer { harness.stop() }
        let poisoned = CollectorHarness.track("a\u{0}b")
        let answer = try await harness.post(json: ["batch": [CollectorHarness.track("ok"), poisoned]])
        #expect(answer.status == 200)
        #expect(answer.json?["rejected"]?.arrayValue?.first?["index"] == 1)
        #expect(try await harness.storedEvents().map { $0["messageId"] } == ["ok"])
    }

    @Test func theConnectionRefusesTextPostgreSQLCannotStoreInsteadOfCuttingItShort() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let refused = try await offPool { () -> String? in
            let db = try PostgresConnection(url: url)
            try db.execute("CREATE TABLE t(v text)")
            do {
                try db.run("INSERT INTO t VALUES ($1)", [.text("a\u{0}b")])
            } catch let error as PostgresError {
                return error.sqlState
            }
            return nil
        }
        #expect(refused == "22021")
    }
}
