import CourierCore
import CourierPostgres
import CourierTesting
import Synchronization
import SyncServer
import SyncWire
import Testing

/// What many server instances on one PostgreSQL database must not get wrong: the changes feed's
/// positions become visible in the order they were taken, so a pull's cursor never skips a
/// record that commits late; and two pushes based on the same version of a record do not both
/// apply.
@Suite(.timeLimit(.minutes(2)))
struct SyncStoreConcurrencyTests {
    static func set(_ id: String, by client: String) -> SyncOperation {
        SyncOperation(
            id: "op-\(client)", sequence: 1, collection: "notes", recordID: id, kind: .set(["by": .string(client)]),
            baseVersion: 0, hlc: "")
    }

    /// A writer that took position 1 and has not committed yet holds the next push for the owner
    /// back, so position 2 cannot become visible first: a reader at `since=0` that saw 2 would
    /// move its cursor past 1 and never see it. (With positions from an identity column the
    /// push would commit 2 at once.)
    @Test func aRecordCommittedLateIsNeverSkippedByTheChangesFeed() async throws {
        let trap = try await Trap.make()
        let first = try await trap.holdOwner { db in
            let position = try db.query(SyncSQL.takePosition.postgres, [.text("alice")]) { $0.int(0) }.first ?? 0
            try db.run(
                """
                INSERT INTO sync_records(owner, collection, id, version, fields, deleted, hlc, position, written_at)
                VALUES ('alice', 'notes', 'late', 1, '{}', 0, '', $1, 1)
                """, [.integer(position)])
            return position
        }
        #expect(first == 1)
        let push = trap.push(Self.set("early", by: "c"), from: "c")
        // Either the push waits on the open transaction's lock (right) or it has already
        // committed (the trap).
        #expect(await trap.pushesWaitOrFinish(1))
        #expect(trap.finishedPushes == 0)
        #expect(try await trap.changes().records.isEmpty)

        try await trap.commit()
        let applied = SyncRecord(collection: "notes", id: "early", version: 1, fields: ["by": "c"], hlc: "")
        #expect(try await push.value == [SyncOpResult(opID: "op-c", outcome: .applied(applied))])
        let changes = try await trap.changes()
        #expect(changes.records.map(\.id) == ["late", "early"])
        #expect(changes.position == 2)
    }

    /// Two pushes that both create record `r` (base version 0) wait for the owner's lock before
    /// they read it: the second then sees the first's version and answers a conflict, instead of
    /// both applying version 1 and one silently overwriting the other.
    @Test func twoPushesBasedOnTheSameVersionApplyOneAndAnswerTheOtherWithAConflict() async throws {
        let trap = try await Trap.make()
        try await trap.holdOwner { _ in () }
        let pushes = ["a", "b"].map { client in trap.push(Self.set("r", by: client), from: client) }
        #expect(await trap.pushesWaitOrFinish(2))
        #expect(trap.finishedPushes == 0)

        try await trap.commit()
        var outcomes: [SyncOpResult.Outcome] = []
        for push in pushes { outcomes += try await push.value.map(\.outcome) }
        let applied = outcomes.compactMap { if case .applied(let record) = $0 { record } else { nil } }
        let conflicts = outcomes.compactMap { if case .conflict(let current, _) = $0 { current } else { nil } }
        #expect(applied.count == 1)
        #expect(conflicts == applied)
        #expect(try await trap.changes().records == applied)
    }
}

/// A PostgreSQL sync store, a connection of the test's own that holds an owner's row in an open
/// transaction, and a watcher of the server's lock waits.
private final class Trap: Sendable {
    let store: PostgresSyncStore
    let holder: Mutex<PostgresConnection>
    let watcher: Mutex<PostgresConnection>
    let finished = Atomic<Int>(0)

    /// A trap on a new database.
    static func make() async throws -> Trap {
        let url = try await TestPostgres.shared.makeDatabase()
        return try await offPool { try Trap(url: url) }
    }

    private init(url: String) throws {
        store = try PostgresSyncStore(url: url, connections: 4)
        holder = Mutex(try PostgresConnection(url: url))
        watcher = Mutex(try PostgresConnection(url: url))
    }

    /// Opens a transaction that locks alice's row the way a push does, runs `body` in it, and
    /// leaves it open.
    func holdOwner<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await offPool {
            try self.holder.withLock { db in
                try db.execute("BEGIN")
                try db.run(SyncSQL.lockOwner.postgres, [.text("alice")])
                return try body(db)
            }
        }
    }

    func commit() async throws {
        try await offPool { try self.holder.withLock { try $0.execute("COMMIT") } }
    }

    /// Pushes `operation` for alice from `client`, off the cooperative pool.
    func push(_ operation: SyncOperation, from client: String) -> Task<[SyncOpResult], any Error> {
        Task {
            defer { finished.add(1, ordering: .sequentiallyConsistent) }
            return try await offPool {
                try self.store.push(owner: "alice", clientID: client, operations: [operation], now: 2) { _ in nil }
            }
        }
    }

    var finishedPushes: Int { finished.load(ordering: .sequentiallyConsistent) }

    /// Waits until `count` pushes wait on a lock, or have finished (when the store does not make
    /// them wait).
    func pushesWaitOrFinish(_ count: Int) async -> Bool {
        await poll {
            if finishedPushes >= count { return true }
            let waiting = try? await offPool {
                try self.watcher.withLock { db in
                    try db.query(
                        """
                        SELECT count(*) FROM pg_stat_activity
                        WHERE datname = current_database() AND wait_event_type = 'Lock'
                        """
                    ) { $0.int(0) }.first ?? 0
                }
            }
            return (waiting ?? 0) + Int64(finishedPushes) >= count
        }
    }

    func changes() async throws -> SyncChanges {
        try await offPool { try self.store.changes(owner: "alice", since: 0, limit: 10) }
    }
}
