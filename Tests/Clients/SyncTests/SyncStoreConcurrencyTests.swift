import CourierCore
import CourierPostgres
import CourierTesting
import Synchronization
import SyncServer
import SyncWire
import Testing

/// What many server instances on one PostgreSQL database must not get wrong: the changes feed's
/// positions become visible in the order they were taken, so a pull's cursor never skips a
/// record that commits late.
@Suite(.timeLimit(.minutes(2)))
struct SyncStoreConcurrencyTests {
    /// A writer that took position 1 and has not committed yet holds the next push for the owner
    /// back, so position 2 cannot become visible first: a reader at `since=0` that saw 2 would
    /// move its cursor past 1 and never see it. (With positions from an identity column the
    /// push would commit 2 at once.)
    @Test func aRecordCommittedLateIsNeverSkippedByTheChangesFeed() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let store = try await offPool { try PostgresSyncStore(url: url, connections: 4) }
        let slow = try await offPool { try Session(url: url) }
        let first = try await offPool {
            try slow.connection.withLock { db in
                try db.execute("BEGIN")
                try db.run(SyncSQL.lockOwner.postgres, [.text("alice")])
                let position = try db.query(SyncSQL.takePosition.postgres, [.text("alice")]) { $0.int(0) }.first ?? 0
                try db.run(
                    """
                    INSERT INTO sync_records(owner, collection, id, version, fields, deleted, hlc, position, written_at)
                    VALUES ('alice', 'notes', 'late', 1, '{}', 0, '', $1, 1)
                    """, [.integer(position)])
                return position
            }
        }
        #expect(first == 1)

        let operation = SyncOperation(
            id: "op-1", sequence: 1, collection: "notes", recordID: "early", kind: .set(["n": 1]), baseVersion: 0,
            hlc: "")
        let push = Task {
            defer { slow.pushed.store(true, ordering: .sequentiallyConsistent) }
            return try await offPool {
                try store.push(owner: "alice", clientID: "c", operations: [operation], now: 2) { _ in nil }
            }
        }
        let watcher = try await offPool { try Session(url: url) }
        // Either the push waits on the open transaction's lock (right) or it has already
        // committed (the trap).
        #expect(
            await poll {
                if slow.hasPushed { return true }
                let waiting = try? await offPool {
                    try watcher.connection.withLock { db in
                        try db.query(
                            """
                            SELECT count(*) FROM pg_stat_activity
                            WHERE datname = current_database() AND wait_event_type = 'Lock'
                            """
                        ) { $0.int(0) }.first ?? 0
                    }
                }
                return (waiting ?? 0) > 0
            })
        #expect(!slow.hasPushed)
        #expect(try await offPool { try store.changes(owner: "alice", since: 0, limit: 10) }.records.isEmpty)

        try await offPool { try slow.connection.withLock { try $0.execute("COMMIT") } }
        let applied = SyncRecord(collection: "notes", id: "early", version: 1, fields: ["n": 1], hlc: "")
        #expect(try await push.value == [SyncOpResult(opID: "op-1", outcome: .applied(applied))])
        let changes = try await offPool { try store.changes(owner: "alice", since: 0, limit: 10) }
        #expect(changes.records.map(\.id) == ["late", "early"])
        #expect(changes.position == 2)
        #expect(try await offPool { try store.latestPosition(owner: "alice") } == 2)
    }
}

/// A connection of the test's own, used by one step at a time, and whether the push returned.
private final class Session: Sendable {
    let connection: Mutex<PostgresConnection>
    let pushed = Atomic<Bool>(false)

    var hasPushed: Bool { pushed.load(ordering: .sequentiallyConsistent) }

    init(url: String) throws {
        connection = Mutex(try PostgresConnection(url: url))
    }
}
