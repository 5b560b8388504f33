import CourierCore

/// The flag tables in SQLite: environments, definitions and the audit table (`PostgresFlagSchema`
/// has the same tables and columns).
enum SQLiteFlagSchema {
    static let migrator = Migrator([
        .init(
            "create flag environments, definitions and audit",
            sql: """
                CREATE TABLE flag_environments(
                    env_key TEXT PRIMARY KEY,
                    version INTEGER NOT NULL
                );
                CREATE TABLE flag_definitions(
                    env_key TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    key TEXT NOT NULL,
                    definition TEXT NOT NULL,
                    updated_at INTEGER NOT NULL,
                    PRIMARY KEY(env_key, subject, key)
                ) WITHOUT ROWID;
                CREATE TABLE flag_audit(
                    id INTEGER PRIMARY KEY,
                    env_key TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    key TEXT NOT NULL,
                    action TEXT NOT NULL,
                    before TEXT,
                    after TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    at INTEGER NOT NULL
                );
                CREATE INDEX flag_audit_by_env ON flag_audit(env_key, id);
                """),
        // Rows from before this migration keep a NULL actor: nobody recorded who made them.
        .init("flag audit actor", sql: "ALTER TABLE flag_audit ADD COLUMN actor TEXT;"),
    ])
}
