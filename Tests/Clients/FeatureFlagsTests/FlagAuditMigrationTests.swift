import CourierCore
import CourierPostgres
import CourierTesting
import FlagServer
import Foundation
import Testing

/// A flag database an older build left, with audit rows and no actor column: the "flag audit
/// actor" migration adds it, the old rows answer no actor, and new rows keep theirs.
@Suite(.timeLimit(.minutes(2)))
struct FlagAuditMigrationTests {
    /// The first migration as older builds applied it (its name is what the migrators match).
    static let firstMigration = "create flag environments, definitions and audit"
    static let oldTables = """
        CREATE TABLE flag_environments(env_key TEXT PRIMARY KEY, version INTEGER NOT NULL);
        CREATE TABLE flag_definitions(env_key TEXT NOT NULL, subject TEXT NOT NULL, key TEXT NOT NULL,
            definition TEXT NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY(env_key, subject, key));
        CREATE TABLE flag_audit(id INTEGER PRIMARY KEY, env_key TEXT NOT NULL, subject TEXT NOT NULL,
            key TEXT NOT NULL, action TEXT NOT NULL, before TEXT, after TEXT NOT NULL, version INTEGER NOT NULL,
            at INTEGER NOT NULL);
        """
    /// PostgreSQL's audit ids come from an identity column, as in its first migration.
    static var oldPostgresTables: String {
        oldTables.replacingOccurrences(
            of: "flag_audit(id INTEGER PRIMARY KEY",
            with: "flag_audit(id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
    }
    static let oldRows = """
        INSERT INTO flag_environments(env_key, version) VALUES ('production', 1);
        INSERT INTO flag_definitions(env_key, subject, key, definition, updated_at)
            VALUES ('production', 'flag', 'old', '{"key":"old","type":"bool","value":false}', 1000);
        INSERT INTO flag_audit(env_key, subject, key, action, before, after, version, at)
            VALUES ('production', 'flag', 'old', 'set', NULL, '{"key":"old","type":"bool","value":false}', 1, 1000);
        """

    @Test(arguments: StoreBackend.allCases)
    func rowsFromBeforeTheActorColumnAnswerNoActorAndNewOnesKeepTheirs(backend: StoreBackend) async throws {
        let store = try await Self.migratedOldStore(backend)
        let change = FlagChange(
            subject: .flag, key: "old", action: "kill",
            definition: ["key": "old", "type": "bool", "value": false, "enabled": false], actor: "console")
        let version = try await offPool { try store.apply(change, environment: "production", atMilliseconds: 2_000) }
        #expect(version == 2)
        let audit = try await offPool { try store.audit(environment: "production", limit: 10) }
        #expect(audit.map(\.actor) == ["console", nil])
        #expect(audit.last?.json["actor"] == .null)
    }

    /// A store opened on a database that has only the first migration and one audit row.
    static func migratedOldStore(_ backend: StoreBackend) async throws -> any FlagStore {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flags-\(Identifier.uuid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("flags.sqlite").path
            do {
                let db = try Database(path: path)
                try Migrator([.init(firstMigration, sql: oldTables)]).migrate(db)
                try db.execute(oldRows)
            }
            return try SQLiteFlagStore(path: path)
        case .postgres:
            let url = try await TestPostgres.shared.makeDatabase()
            try await offPool {
                let pool = try PostgresPool(
                    url: url, size: 1,
                    migrator: PostgresMigrator(scope: "flags", [.init(firstMigration, sql: oldPostgresTables)]))
                try pool.write { connection in try connection.execute(oldRows) }
            }
            return try await offPool { try PostgresFlagStore(url: url, connections: 2) }
        }
    }
}
