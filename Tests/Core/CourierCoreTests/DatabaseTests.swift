@testable import CourierCore
import Foundation
import Testing

/// Where a test database lives: every test body runs against both.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case file

    var testDescription: String { rawValue }

    func path() -> String {
        switch self {
        case .memory: return ":memory:"
        case .file:
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("courier-db-\(Identifier.uuid())")
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            return dir.appendingPathComponent("test.sqlite").path
        }
    }
}

struct DatabaseTests {
    let migrator = Migrator([
        .init("items", sql: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, data BLOB)"),
        .init("items.size", sql: "ALTER TABLE items ADD COLUMN size REAL"),
    ])

    @Test(arguments: Backend.allCases)
    func migratesAndBindsEveryType(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        try pool.write { db in
            try db.run(
                "INSERT INTO items(name, data, size) VALUES (?1, ?2, ?3)",
                [.text("ä"), .blob([0, 1, 255]), .real(1.5)])
            try db.run("INSERT INTO items(name, data, size) VALUES (?1, ?2, ?3)", ["b", nil, nil])
        }
        let rows = try pool.read { db in
            try db.query("SELECT name, data, size, size IS NULL FROM items ORDER BY id") { row in
                (row.text(0) ?? "", row.bytes(1), row.double(2), row.int(3))
            }
        }
        #expect(rows.map(\.0) == ["ä", "b"])
        #expect(rows[0].1 == [0, 1, 255])
        #expect(rows[0].2 == 1.5)
        #expect(rows[1].3 == 1)
        let version = try pool.read { db in try db.query("PRAGMA user_version") { $0.int(0) } }
        #expect(version == [2])
    }

    @Test(arguments: Backend.allCases)
    func failedTransactionRollsBackAndReportsSQLiteCode(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        do {
            try pool.transaction { db in
                try db.run("INSERT INTO items(name) VALUES ('x')")
                try db.run("INSERT INTO items(name) VALUES ('x')")
            }
            Issue.record("the unique constraint should fail")
        } catch let error as DatabaseError {
            #expect(error.isConstraintViolation)
            #expect(error.message.contains("UNIQUE"))
        }
        let count = try pool.read { db in try db.query("SELECT count(*) FROM items") { $0.int(0) } }
        #expect(count == [0])
    }

    @Test func migratingTwiceIsANoOpAndNewerSchemasAreRefused() throws {
        let path = Backend.file.path()
        _ = try DatabasePool(path: path, migrator: migrator)
        _ = try DatabasePool(path: path, migrator: migrator)
        let older = Migrator([migrator.migrations[0]])
        // An app downgrade: its own error, so callers never take the file for a corrupt one.
        let error = #expect(throws: DatabaseSchemaError.self) { try DatabasePool(path: path, migrator: older) }
        #expect(error?.unknownMigrations == ["items.size"])
    }

    /// Two connections opening the same file at once: the second read the applied names before
    /// the first recorded its migration. Its turn finds the migration recorded and skips it,
    /// instead of running `ALTER TABLE` again and failing (which a caller could take for a
    /// damaged file).
    @Test func aMigrationAnotherConnectionAppliedMeanwhileIsSkipped() throws {
        let path = Backend.file.path()
        _ = try DatabasePool(path: path, migrator: Migrator([migrator.migrations[0]]))
        let late = try Database(path: path)
        // The other connection migrates fully first…
        _ = try DatabasePool(path: path, migrator: migrator)
        // …then this one takes its turn at the step it had found missing.
        try migrator.apply(migrator.migrations[1], offset: 1, to: late)
        #expect(
            try late.query("SELECT name FROM courier_migrations ORDER BY rowid") { $0.text(0) ?? "" }
                == ["items", "items.size"])
    }

    @Test func migrationsAreAppliedByNameNotByCount() throws {
        let path = Backend.file.path()
        _ = try DatabasePool(path: path, migrator: migrator)
        // A migration added later, between two that shipped, still runs exactly once.
        let grown = Migrator([
            migrator.migrations[0],
            .init("items.tag", sql: "ALTER TABLE items ADD COLUMN tag TEXT"),
            migrator.migrations[1],
        ])
        _ = try DatabasePool(path: path, migrator: grown)
        _ = try DatabasePool(path: path, migrator: grown)
        let db = try Database(path: path)
        #expect(
            try db.query("SELECT count(*) FROM pragma_table_info('items') WHERE name IN ('tag', 'size')") { $0.int(0) }
                == [2])
        #expect(
            try db.query("SELECT name FROM courier_migrations ORDER BY rowid") { $0.text(0) ?? "" }
                == ["items", "items.size", "items.tag"])
    }

    @Test func aDatabaseFromBeforeNamedMigrationsKeepsItsVersion() throws {
        let path = Backend.file.path()
        do {
            let db = try Database(path: path)
            try db.execute(migrator.migrations[0].sql)
            try db.execute("PRAGMA user_version = 1")
        }
        _ = try DatabasePool(path: path, migrator: migrator)
        let db = try Database(path: path)
        #expect(
            try db.query("SELECT name FROM courier_migrations ORDER BY rowid") { $0.text(0) ?? "" } == [
                "items", "items.size",
            ])
        #expect(try db.query("PRAGMA user_version") { $0.int(0) } == [2])
        let tooNew = try Database(path: Backend.file.path())
        try tooNew.execute("PRAGMA user_version = 9")
        #expect(throws: DatabaseSchemaError.self) { try migrator.migrate(tooNew) }
    }

    @Test(arguments: Backend.allCases)
    func aWriteInsideAWriteIsAnErrorNotADeadlock(backend: Backend) throws {
        let pool = try DatabasePool(path: backend.path(), migrator: migrator)
        let error = #expect(throws: DatabaseError.self) {
            try pool.write { _ in try pool.transaction { db in try db.run("INSERT INTO items(name) VALUES ('x')") } }
        }
        #expect(error?.code == .misuse)
        // The pool still works afterwards.
        try pool.write { db in try db.run("INSERT INTO items(name) VALUES ('y')") }
        #expect(try pool.read { db in try db.query("SELECT name FROM items") { $0.text(0) ?? "" } } == ["y"])
    }

    @Test func aReadSeesOneSnapshot() throws {
        let pool = try DatabasePool(path: Backend.file.path(), migrator: migrator)
        try pool.write { db in try db.run("INSERT INTO items(name) VALUES ('a')") }
        let (before, after) = try pool.read { db in
            let before = try db.query("SELECT count(*) FROM items") { $0.int(0) }
            // A commit made between two queries of one read is not seen by the second.
            try pool.write { db in try db.run("INSERT INTO items(name) VALUES ('b')") }
            let after = try db.query("SELECT count(*) FROM items") { $0.int(0) }
            return (before, after)
        }
        #expect(before == [1])
        #expect(after == [1])
    }

    @Test(arguments: [
        (ResultCode(rawValue: 13), ResultCode.full, true),
        (ResultCode(rawValue: 10 | (4 << 8)), ResultCode.ioError, true),
        (ResultCode(rawValue: 10 | (4 << 8)), ResultCode.fsyncError, true),
        (ResultCode(rawValue: 10), ResultCode.fsyncError, false),
        (ResultCode(rawValue: 19 | (8 << 8)), ResultCode.constraint, true),
        (ResultCode(rawValue: 19 | (8 << 8)), ResultCode.primaryKeyConstraint, false),
        (ResultCode(rawValue: 26), ResultCode.corrupt, false),
    ])
    func primaryCodesMatchTheirExtendedCodes(code: ResultCode, pattern: ResultCode, matches: Bool) {
        #expect((pattern ~= code) == matches)
    }

    @Test func aFailingMigrationRollsBackAndKeepsTheVersion() throws {
        let path = Backend.file.path()
        _ = try DatabasePool(path: path, migrator: Migrator([migrator.migrations[0]]))
        let broken = Migrator([
            migrator.migrations[0],
            .init("broken", sql: "ALTER TABLE items ADD COLUMN x INT; SELECT nope FROM nowhere"),
        ])
        #expect(throws: DatabaseError.self) { try DatabasePool(path: path, migrator: broken) }
        let db = try Database(path: path)
        #expect(try db.query("PRAGMA user_version") { $0.int(0) } == [1])
        // The step's first statement was rolled back with it.
        #expect(try db.query("SELECT count(*) FROM pragma_table_info('items') WHERE name = 'x'") { $0.int(0) } == [0])
        _ = try DatabasePool(path: path, migrator: migrator)
        #expect(try db.query("PRAGMA user_version") { $0.int(0) } == [2])
    }

    @Test func corruptFileIsAnErrorNotACrash() throws {
        let path = Backend.file.path()
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        do {
            _ = try DatabasePool(path: path, migrator: migrator)
            Issue.record("a corrupt file should not open")
        } catch let error as DatabaseError {
            #expect(error.isCorrupt)
        }
    }

    @Test func fullDatabaseReportsDiskFull() throws {
        var options = Database.Options()
        options.maximumPageCount = 16
        let pool = try DatabasePool(path: Backend.file.path(), options: options, migrator: migrator)
        do {
            try pool.write { db in
                for i in 0..<10_000 {
                    try db.run(
                        "INSERT INTO items(name, data) VALUES (?1, ?2)",
                        [.text("item-\(i)"), .blob([UInt8](repeating: 7, count: 512))])
                }
            }
            Issue.record("the page limit should be hit")
        } catch let error as DatabaseError {
            #expect(error.isDiskFull)
        }
    }

    @Test func concurrentWritersAndReadersLoseNothing() async throws {
        let pool = try DatabasePool(path: Backend.file.path(), migrator: migrator)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for i in 0..<50 {
                        try await pool.write { db in
                            try db.run("INSERT INTO items(name) VALUES (?1)", [.text("\(worker)-\(i)")])
                        }
                        _ = try await pool.read { db in try db.query("SELECT count(*) FROM items") { $0.int(0) } }
                    }
                }
            }
            try await group.waitForAll()
        }
        let count = try await pool.read { db in try db.query("SELECT count(*) FROM items") { $0.int(0) } }
        #expect(count == [400])
    }
}
