/// Schema migrations registered and applied by name, in order (GRDB's `DatabaseMigrator` is the
/// model). Applied names are kept in the table `courier_migrations`, so adding a migration never
/// depends on counting; a database that a newer build migrated (it has names this build does not
/// know) is refused with `DatabaseSchemaError`, never mistaken for a corrupt file.
///
/// ```swift
/// let migrator = Migrator([
///     .init("create events", sql: "CREATE TABLE events(id INTEGER PRIMARY KEY, payload BLOB)"),
///     .init("index events by day", sql: "CREATE INDEX events_by_day ON events(day)"),
/// ])
/// try migrator.migrate(db)
/// ```
public struct Migrator: Sendable {
    /// One step: its SQL runs in the same transaction that records its name.
    public struct Migration: Sendable {
        /// The migration's identity: never rename or reorder one that has shipped.
        public let name: String
        /// Statements to run.
        public let sql: String

        /// Creates a migration.
        public init(_ name: String, sql: String) {
            self.name = name
            self.sql = sql
        }
    }

    /// The migrations, in the order they apply.
    public var migrations: [Migration]

    /// Creates a migrator.
    public init(_ migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Applies, each in its own transaction, every migration whose name the database has not
    /// recorded yet.
    /// - Throws: `DatabaseSchemaError` when the database was migrated by a newer build;
    ///   `DatabaseError` when a step fails (it rolls back and stays unapplied).
    public func migrate(_ db: Database) throws {
        let applied = try appliedNames(db)
        let known = Set(migrations.map(\.name))
        let unknown = applied.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw DatabaseSchemaError(path: db.path, unknownMigrations: unknown.sorted())
        }
        for (offset, migration) in migrations.enumerated() where !applied.contains(migration.name) {
            try apply(migration, offset: offset, to: db)
        }
    }

    /// Applies one migration in its own transaction unless it is recorded by then: another
    /// connection to the same file (a second process, or a second instance in this one) may have
    /// applied it since this one read the names, and running its SQL again would fail on what it
    /// created.
    func apply(_ migration: Migration, offset: Int, to db: Database) throws {
        try db.transaction {
            let recorded =
                try db.query("SELECT 1 FROM courier_migrations WHERE name = ?1", [.text(migration.name)]) { _ in true }
                .first ?? false
            guard !recorded else { return }
            try db.execute(migration.sql)
            try db.run("INSERT INTO courier_migrations(name) VALUES (?1)", [.text(migration.name)])
            // `user_version` still counts applied steps, for tools that read it.
            try db.execute("PRAGMA user_version = \(offset + 1)")
        }
    }

    /// The names applied so far. A database from before names were recorded has only
    /// `user_version`: its first `user_version` migrations are the ones applied.
    private func appliedNames(_ db: Database) throws -> Set<String> {
        let hasTable =
            try db.query(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'courier_migrations'"
            ) { _ in true }.first ?? false
        if hasTable {
            return Set(try db.query("SELECT name FROM courier_migrations") { $0.text(0) ?? "" })
        }
        let version = Int(try db.query("PRAGMA user_version") { $0.int(0) }.first ?? 0)
        if version > migrations.count {
            throw DatabaseSchemaError(path: db.path, unknownMigrations: ["schema version \(version)"])
        }
        let names = migrations.prefix(version).map(\.name)
        // `IF NOT EXISTS` and `OR IGNORE`: another connection may be doing the same at once.
        try db.transaction {
            try db.execute(
                "CREATE TABLE IF NOT EXISTS courier_migrations(name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL DEFAULT (unixepoch()))"
            )
            for name in names {
                try db.run("INSERT OR IGNORE INTO courier_migrations(name) VALUES (?1)", [.text(name)])
            }
        }
        return Set(names)
    }
}

/// The database was migrated by a newer build of the app or server: this build must not write to
/// it (and must not move it aside as if it were corrupt). Upgrade the build, or open another file.
public struct DatabaseSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file.
    public let path: String
    /// Migrations the file has and this build does not know.
    public let unknownMigrations: [String]

    /// Creates the error.
    public init(path: String, unknownMigrations: [String]) {
        self.path = path
        self.unknownMigrations = unknownMigrations
    }

    /// A sentence for logs.
    public var description: String {
        "the database \(path) was migrated by a newer build (unknown: \(unknownMigrations.joined(separator: ", ")))"
    }
}
