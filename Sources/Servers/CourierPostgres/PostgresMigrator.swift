import CourierCore

/// Schema migrations applied by name, as `Migrator` does for SQLite, under a session advisory
/// lock so that instances starting together never race: the first applies what is missing, the
/// others wait for it and then find nothing to do.
///
/// Applied names are kept in `courier_migrations(scope, name)`, one scope per module sharing the
/// database (`messenger`, `collector`…). A database migrated by a newer build (names this build
/// does not know, in its scope) is refused with `DatabaseSchemaError`.
public struct PostgresMigrator: Sendable {
    /// The advisory lock key every Courier migration takes (any fixed number; the same in every
    /// build).
    public static let lockKey: Int64 = 0x436F_7572_6965_72

    /// The module whose migrations these are.
    public let scope: String
    /// The migrations, in the order they apply.
    public let migrations: [Migrator.Migration]

    /// Creates a migrator for `scope`.
    public init(scope: String, _ migrations: [Migrator.Migration]) {
        self.scope = scope
        self.migrations = migrations
    }

    /// Applies, each in its own transaction, every migration not yet recorded for the scope.
    /// - Throws: `DatabaseSchemaError` when a newer build migrated the database; `PostgresError`
    ///   when a step fails (it rolls back and stays unapplied).
    public func migrate(_ connection: PostgresConnection) throws {
        try connection.run("SELECT pg_advisory_lock($1)", [.integer(Self.lockKey)])
        defer { _ = try? connection.run("SELECT pg_advisory_unlock($1)", [.integer(Self.lockKey)]) }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS courier_migrations(
                scope text NOT NULL,
                name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY(scope, name))
            """)
        let applied = Set(
            try connection.query("SELECT name FROM courier_migrations WHERE scope = $1", [.text(scope)]) {
                $0.text(0) ?? ""
            })
        let unknown = applied.subtracting(migrations.map(\.name))
        if !unknown.isEmpty {
            throw DatabaseSchemaError(path: "PostgreSQL (\(scope))", unknownMigrations: unknown.sorted())
        }
        for migration in migrations where !applied.contains(migration.name) {
            try connection.transaction {
                try connection.execute(migration.sql)
                try connection.run(
                    "INSERT INTO courier_migrations(scope, name) VALUES ($1, $2)",
                    [.text(scope), .text(migration.name)])
            }
        }
    }
}
