/// Schema migrations keyed by `PRAGMA user_version`: migration *n* moves version *n−1* to *n*.
public struct Migrator: Sendable {
    /// One step: its SQL runs in the same transaction that bumps `user_version`.
    public struct Migration: Sendable {
        /// A name for logs and errors.
        public let name: String
        /// Statements to run.
        public let sql: String

        /// Creates a migration.
        public init(_ name: String, sql: String) {
            self.name = name
            self.sql = sql
        }
    }

    /// The migrations, in order.
    public var migrations: [Migration]

    /// Creates a migrator.
    public init(_ migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Applies every migration above the database's current `user_version`.
    /// - Throws: `DatabaseError`; a failed step rolls back and leaves the version where it was.
    public func migrate(_ db: Database) throws {
        let current = try db.query("PRAGMA user_version") { $0.int(0) }.first ?? 0
        if current > Int64(migrations.count) {
            throw DatabaseError(
                resultCode: 1,
                message: "database schema version \(current) is newer than this build knows (\(migrations.count))")
        }
        for (offset, migration) in migrations.enumerated() where Int64(offset + 1) > current {
            try db.transaction {
                try db.execute(migration.sql)
                try db.execute("PRAGMA user_version = \(offset + 1)")
            }
        }
    }
}
