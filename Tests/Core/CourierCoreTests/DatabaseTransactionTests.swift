import CourierCore
import Foundation
import Testing

/// `Database.savepoint`, the transaction that `DatabasePool.write` opens, `writeWithoutTransaction`
/// and the async `read` / `write`; every body runs against the in-memory and the file backend.
struct DatabaseTransactionTests {
    struct Boom: Error, Equatable {}
    /// A body ran on a thread that the holders were meant to take, or the pool never ran it.
    struct BodyRanOnlyAfterTheDeadline: Error {}

    let migrator = Migrator([
        .init("items", sql: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)"),
        .init(
            "parents and children",
            sql: """
                CREATE TABLE parents(id INTEGER PRIMARY KEY);
                CREATE TABLE children(id INTEGER PRIMARY KEY,
                    parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED);
                """),
    ])

    func names(_ pool: DatabasePool) throws -> [String] {
        try pool.read { db in try db.query("SELECT name FROM items ORDER BY name") { $0.text(0) ?? "" } }
    }

    // MARK: savepoint

    @Test(arguments: Backend.allCases)
    func savepointsNestInsideAWriteAndOpenATransactionAtTheTopLevel(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        let states = try pool.writeWithoutTransaction { db in
            let before = db.isAutocommit
            // At the top level the savepoint is a transaction of its own.
            let inside = try db.savepoint { db in
                try db.run("INSERT INTO items(name) VALUES ('a')")
                return db.isAutocommit
            }
            return [before, inside, db.isAutocommit]
        }
        #expect(states == [true, false, true])
        // Inside the transaction of `write` savepoints nest, three deep.
        try pool.write { db in
            try db.savepoint { db in
                try db.run("INSERT INTO items(name) VALUES ('b')")
                try db.savepoint { db in
                    try db.run("INSERT INTO items(name) VALUES ('c')")
                    try db.savepoint { db in try db.run("INSERT INTO items(name) VALUES ('d')") }
                }
            }
        }
        #expect(try names(pool) == ["a", "b", "c", "d"])
    }

    @Test(arguments: Backend.allCases)
    func aFailedSavepointUndoesOnlyItsOwnWrites(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        try pool.write { db in
            try db.run("INSERT INTO items(name) VALUES ('before')")
            #expect(throws: Boom.self) {
                try db.savepoint { db in
                    try db.run("INSERT INTO items(name) VALUES ('inner')")
                    throw Boom()
                }
            }
            try db.savepoint { db in
                try db.run("INSERT INTO items(name) VALUES ('outer')")
                // A failure two levels down leaves the level above it intact.
                #expect(throws: DatabaseError.self) {
                    try db.savepoint { db in
                        try db.run("INSERT INTO items(name) VALUES ('nested')")
                        try db.run("INSERT INTO items(name) VALUES ('outer')")
                    }
                }
            }
            try db.run("INSERT INTO items(name) VALUES ('after')")
        }
        #expect(try names(pool) == ["after", "before", "outer"])
    }

    @Test(arguments: Backend.allCases)
    func theErrorOfTheBodyWinsOverAFailedRollback(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        // The body ends the savepoint itself, so the rollback after its error fails: the caller
        // must still see why the work failed, not that the savepoint was gone.
        try pool.write { db -> Void in
            #expect(throws: Boom.self) {
                try db.savepoint { db in
                    try db.execute("RELEASE courier")
                    throw Boom()
                }
            }
        }
        // The same at the top level, where the rollback of the transaction fails.
        try pool.writeWithoutTransaction { db -> Void in
            #expect(throws: Boom.self) {
                try db.savepoint { db in
                    try db.execute("ROLLBACK")
                    throw Boom()
                }
            }
        }
        #expect(throws: Boom.self) {
            try pool.write { db in
                try db.run("INSERT INTO items(name) VALUES ('x')")
                try db.execute("ROLLBACK")
                throw Boom()
            }
        }
        // The connection is usable afterwards.
        try pool.write { db in try db.run("INSERT INTO items(name) VALUES ('y')") }
        #expect(try names(pool) == ["y"])
    }

    @Test(arguments: Backend.allCases)
    func theFirstErrorWinsWhenTheReleaseFailsAndTheRollbackAfterIt(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        let error = try pool.write { db in
            #expect(throws: DatabaseError.self) {
                // The body succeeds; the release fails, then so does the rollback.
                try db.savepoint { db in try db.execute("RELEASE courier") }
            }
        }
        #expect(error?.sql == "RELEASE courier")
    }

    // MARK: write

    @Test(arguments: Backend.allCases)
    func aThrowInsideWriteRollsBackEverything(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        #expect(throws: Boom.self) {
            try pool.write { db in
                try db.run("INSERT INTO items(name) VALUES ('a')")
                try db.run("INSERT INTO items(name) VALUES ('b')")
                throw Boom()
            }
        }
        #expect(try names(pool) == [])
    }

    /// `PRAGMA synchronous` as the writer connection reports it (1 NORMAL, 2 FULL).
    func synchronous(_ db: Database) throws -> Int64 {
        try db.query("PRAGMA synchronous") { $0.int(0) }.first ?? -1
    }

    @Test func aWriteDeferringSyncCommitsUnderNormalAndPutsThePoolsSettingBack() throws {
        let pool = try DatabasePool(path: Backend.file.path(), migrator: migrator)
        let inside = try pool.writeDeferringSync { db in
            try db.run("INSERT INTO items(name) VALUES ('a')")
            return try synchronous(db)
        }
        #expect(inside == 1)
        #expect(try pool.writeWithoutTransaction { try synchronous($0) } == 2)
        #expect(try pool.write { try synchronous($0) } == 2)
        // A body that throws rolls back, and the setting is back all the same.
        #expect(throws: Boom.self) {
            try pool.writeDeferringSync { db in
                try db.run("INSERT INTO items(name) VALUES ('b')")
                throw Boom()
            }
        }
        #expect(try pool.writeWithoutTransaction { try synchronous($0) } == 2)
        #expect(try names(pool) == ["a"])
        // A pool that already runs NORMAL stays on it.
        var options = Database.Options()
        options.synchronous = "NORMAL"
        let normal = try DatabasePool(path: Backend.file.path(), options: options, migrator: migrator)
        #expect(try normal.writeDeferringSync { try synchronous($0) } == 1)
        #expect(try normal.writeWithoutTransaction { try synchronous($0) } == 1)
    }

    @Test(arguments: Backend.allCases)
    func aFailedCommitRollsBackAndReportsTheCommitsError(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        // A deferred foreign key is checked at COMMIT: the commit fails and the transaction stays
        // open until it is rolled back.
        let error = #expect(throws: DatabaseError.self) {
            try pool.write { db in
                try db.run("INSERT INTO items(name) VALUES ('a')")
                try db.run("INSERT INTO children(id, parent) VALUES (1, 42)")
            }
        }
        #expect(error?.isConstraintViolation == true)
        #expect(error?.sql == "COMMIT")
        #expect(try names(pool) == [])
        try pool.write { db in try db.run("INSERT INTO items(name) VALUES ('b')") }
        #expect(try names(pool) == ["b"])
    }

    @Test(arguments: Backend.allCases)
    func writeWithoutTransactionRunsWhatATransactionRefuses(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        #expect(throws: DatabaseError.self) { try pool.write { db in try db.execute("VACUUM") } }
        #expect(throws: DatabaseError.self) { try pool.write { db in try db.execute("BEGIN IMMEDIATE") } }
        try pool.writeWithoutTransaction { db in
            try db.execute("VACUUM")
            try db.execute("PRAGMA synchronous = NORMAL")
            // Code that manages its own transaction.
            try db.execute("BEGIN IMMEDIATE")
            try db.run("INSERT INTO items(name) VALUES ('own')")
            try db.execute("COMMIT")
            // Outside a transaction each statement commits on its own.
            try db.run("INSERT INTO items(name) VALUES ('alone')")
            #expect(throws: DatabaseError.self) { try db.run("INSERT INTO items(name) VALUES ('alone')") }
        }
        #expect(try names(pool) == ["alone", "own"])
    }

    @Test func readersSeeCommittedDataWhileAWriteIsOpen() throws {
        let pool = try DatabasePool(path: Backend.file.path(), migrator: migrator)
        try pool.write { db in try db.run("INSERT INTO items(name) VALUES ('committed')") }
        let seen = try pool.write { db in
            try db.run("INSERT INTO items(name) VALUES ('pending')")
            // A reader on another connection is not blocked by the open write and sees only
            // the committed row.
            return try pool.read { reader in try reader.query("SELECT name FROM items") { $0.text(0) ?? "" } }
        }
        #expect(seen == ["committed"])
    }

    // MARK: async

    @Test(arguments: Backend.allCases)
    func anAsyncWriteIsATransaction(backend: Backend) async throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        await #expect(throws: Boom.self) {
            try await pool.write { db in
                try db.run("INSERT INTO items(name) VALUES ('a')")
                throw Boom()
            }
        }
        let id = try await pool.write { db in
            try db.run("INSERT INTO items(name) VALUES ('b')")
            return db.lastInsertRowID
        }
        try await pool.writeWithoutTransaction { db in try db.execute("VACUUM") }
        let ids = try await pool.read { db in try db.query("SELECT id FROM items") { $0.int(0) } }
        #expect(ids == [id])
    }

    // Its cases run one after the other: each holds every cooperative thread.
    @Test(.serialized, .timeLimit(.minutes(1)), arguments: Backend.allCases)
    func asyncReadsAndWritesCompleteWhileEveryCooperativeThreadIsHeld(backend: Backend) async throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        // Swift's cooperative pool has one thread per core.
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let calls = 8
        let holders = Counter()
        let finished = Counter()
        // Each body waits until every cooperative thread is held, so it can only finish on a
        // thread of the pool's own. `Task.immediate` runs each call up to its first suspension
        // before the loop goes on, so every call has been handed to the pool before the holders
        // start.
        var tasks: [Task<Int64, any Error>] = []
        for i in 0..<calls {
            tasks.append(
                Task.immediate {
                    try await pool.write { db in
                        guard holders.wait(for: threads) else { throw BodyRanOnlyAfterTheDeadline() }
                        try db.run("INSERT INTO items(name) VALUES (?1)", [.text("item \(i)")])
                        finished.increment()
                        return 1
                    }
                })
            tasks.append(
                Task.immediate {
                    try await pool.read { db in
                        guard holders.wait(for: threads) else { throw BodyRanOnlyAfterTheDeadline() }
                        _ = try db.query("SELECT count(*) FROM items") { $0.int(0) }
                        finished.increment()
                        return 0
                    }
                })
        }
        // Block every cooperative thread until all the bodies have run.
        let held = (0..<threads).map { _ in
            Task.detached {
                holders.increment()
                return finished.wait(for: 2 * calls)
            }
        }
        var written: Int64 = 0
        for task in tasks { written += try await task.value }
        for holder in held { #expect(await holder.value) }
        #expect(written == Int64(calls))
        #expect(try await pool.read { db in try db.query("SELECT count(*) FROM items") { $0.int(0) } } == [8])
    }
}

/// A count that threads outside Swift's cooperative pool can wait on.
private final class Counter: @unchecked Sendable {
    // @unchecked: `value` is only read and written while `condition` is locked.
    private let condition = NSCondition()
    private var value = 0

    func increment() {
        condition.lock()
        value += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Every wait gives up at this instant of real time, so a broken pool fails the test once,
    /// instead of every waiting body hanging the run in turn.
    private let deadline = Date(timeIntervalSinceNow: 20)

    /// Blocks the calling thread until the count reaches `target`, or until the deadline.
    func wait(for target: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while value < target {
            if !condition.wait(until: deadline) { return value >= target }
        }
        return true
    }
}
