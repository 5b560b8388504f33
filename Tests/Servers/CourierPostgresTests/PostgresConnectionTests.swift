import CourierCore
import CourierPostgres
import CourierTesting
import Foundation
import Testing

/// The libpq owner against a real PostgreSQL server that the test run starts.
@Suite(.timeLimit(.minutes(2)))
struct PostgresConnectionTests {
    func makePool(size: Int = 4) async throws -> PostgresPool {
        let url = try await TestPostgres.shared.makeDatabase()
        return try await offPool { try PostgresPool(url: url, size: size) }
    }

    @Test func valuesRoundTripThroughParametersAndBinaryResults() async throws {
        let pool = try await makePool()
        let row = try await pool.write { db in
            try db.execute("CREATE TABLE t(i bigint, n integer, s text, b bytea, d double precision, z text)")
            try db.run(
                "INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)",
                [.integer(-9_000_000_000), .integer(-7), .text("héllo ✓"), .blob([0, 1, 0, 255]), .real(2.5), .null])
            return try db.query("SELECT i, n, s, b, d, z, b IS NULL FROM t") { row in
                [
                    "\(row.int(0))", "\(row.int(1))", row.text(2) ?? "nil", "\(row.bytes(3))", "\(row.double(4))",
                    row.text(5) ?? "nil", "\(row.int(6))",
                ]
            }.first
        }
        #expect(row == ["-9000000000", "-7", "héllo ✓", "[0, 1, 0, 255]", "2.5", "nil", "0"])
    }

    @Test func errorsCarryTheirSQLState() async throws {
        let pool = try await makePool()
        let duplicate = await #expect(throws: PostgresError.self) {
            try await pool.write { db in
                try db.execute("CREATE TABLE k(id text PRIMARY KEY)")
                try db.run("INSERT INTO k VALUES ($1)", ["a"])
                try db.run("INSERT INTO k VALUES ($1)", ["a"])
            }
        }
        #expect(duplicate?.sqlState == "23505")
        #expect(duplicate?.isUniqueViolation == true)
        let syntax = await #expect(throws: PostgresError.self) {
            try await pool.withConnection { db in try db.run("SELEKT 1") }
        }
        #expect(syntax?.sqlState == "42601")
        // The failed transaction rolled back: the table does not exist.
        let missing = await #expect(throws: PostgresError.self) {
            try await pool.read { db in try db.query("SELECT id FROM k") { $0.text(0) } }
        }
        #expect(missing?.sqlState == "42P01")
    }

    @Test func aFailedSavepointUndoesOnlyItsOwnWork() async throws {
        let pool = try await makePool()
        let ids = try await pool.write { db in
            try db.execute("CREATE TABLE k(id text PRIMARY KEY)")
            for id in ["a", "a", "b"] {
                _ = try? db.savepoint { db in
                    try db.run("INSERT INTO k VALUES ($1)", [.text(id + "-first")])
                    try db.run("INSERT INTO k VALUES ($1)", [.text(id)])
                }
            }
            return try db.query("SELECT id FROM k ORDER BY id") { $0.text(0) ?? "" }
        }
        #expect(ids == ["a", "a-first", "b", "b-first"])
    }

    @Test func instancesMigratingTogetherApplyEachMigrationOnce() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let migrator = PostgresMigrator(
            scope: "test",
            [
                .init("create", sql: "CREATE TABLE items(id bigint PRIMARY KEY); CREATE TABLE log(step text)"),
                .init("fill", sql: "INSERT INTO log VALUES ('fill'); INSERT INTO items VALUES (1)"),
            ])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try await offPool { try PostgresPool(url: url, size: 1, migrator: migrator) } }
            }
            try await group.waitForAll()
        }
        let pool = try await offPool { try PostgresPool(url: url, size: 1) }
        let steps = try await pool.read { db in try db.query("SELECT step FROM log") { $0.text(0) ?? "" } }
        #expect(steps == ["fill"])
        let newer = PostgresMigrator(scope: "test", [.init("create", sql: "SELECT 1")])
        #expect(throws: DatabaseSchemaError.self) { try PostgresPool(url: url, size: 1, migrator: newer) }
    }

    /// A schema change invalidates a prepared plan: the statement is prepared again under a new
    /// name, and statements prepared afterwards do not collide with the old names.
    @Test func aStatementWhosePlanASchemaChangeInvalidatedIsPreparedAgain() async throws {
        let pool = try await makePool(size: 1)
        let outcome = try await pool.withConnection { db -> [String] in
            try db.execute("CREATE TABLE t(a bigint); INSERT INTO t VALUES (1)")
            _ = try db.query("SELECT * FROM t") { $0.int(0) }
            _ = try db.query("SELECT a + 1 FROM t") { $0.int(0) }
            try db.execute("ALTER TABLE t ADD COLUMN b text")
            var seen: [String] = []
            do {
                _ = try db.query("SELECT * FROM t") { $0.int(0) }
                seen.append("reused")
            } catch let error as PostgresError {
                seen.append(error.sqlState)
            }
            seen.append("\(try db.query("SELECT * FROM t") { $0.int(0) })")
            seen.append("\(try db.query("SELECT a + 2 FROM t") { $0.int(0) })")
            return seen
        }
        #expect(outcome == ["0A000", "[1]", "[3]"])
    }

    @Test func aConnectionTheServerDroppedIsReplaced() async throws {
        let pool = try await makePool(size: 1)
        let pid = try await pool.withConnection { db in try db.query("SELECT pg_backend_pid()") { $0.int(0) }.first }
        let other = try await makePool(size: 1)
        _ = try await other.withConnection { db in
            try db.query(
                "SELECT pg_terminate_backend(pid, 60000)::int FROM pg_stat_activity WHERE pid = $1",
                [.integer(pid ?? 0)]
            ) { $0.int(0) }
        }
        let lost = await #expect(throws: PostgresError.self) {
            try await pool.withConnection { db in try db.run("SELECT 1") }
        }
        #expect(lost?.isConnectionFailure == true)
        let again = try await pool.withConnection { db in try db.query("SELECT 41 + 1") { $0.int(0) }.first }
        #expect(again == 42)
    }

    @Test func callersBeyondThePoolSizeWaitForAConnection() async throws {
        let pool = try await makePool(size: 2)
        try await pool.write { db in try db.execute("CREATE TABLE n(v bigint)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for value in 0..<20 {
                group.addTask {
                    _ = try await pool.write { db in try db.run("INSERT INTO n VALUES ($1)", [.integer(Int64(value))]) }
                }
            }
            try await group.waitForAll()
        }
        let count = try await pool.read { db in try db.query("SELECT count(*) FROM n") { $0.int(0) }.first }
        #expect(count == 20)
        let open = try await pool.read { db in
            try db.query("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()") { $0.int(0) }.first
        }
        #expect((open ?? 0) <= 2)
    }
}

/// Hourly jobs on several instances: one runs the job, the others skip the round.
@Suite(.timeLimit(.minutes(2)))
struct PostgresLeaderTests {
    @Test func aJobAnotherInstanceIsRunningIsSkipped() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let first = try await offPool { try PostgresPool(url: url, size: 1) }
        let second = try await offPool { try PostgresPool(url: url, size: 1) }
        let nested = try await offPool {
            try first.ifNoOtherInstanceRuns("expire") { _ in
                try second.ifNoOtherInstanceRuns("expire") { _ in "both ran" } ?? "skipped"
            }
        }
        #expect(nested == "skipped")
        let afterwards = try await offPool { try second.ifNoOtherInstanceRuns("expire") { _ in "ran" } }
        #expect(afterwards == "ran")
        let other = try await offPool {
            try first.ifNoOtherInstanceRuns("expire") { _ in try second.ifNoOtherInstanceRuns("prune") { _ in 1 } }
        }
        #expect(other == 1)
    }
}
