import CourierCore
import CourierPostgres

/// The flag tables on PostgreSQL: the SQLite schema's tables and columns, so operators' queries
/// read either. Subjects and keys collate as bytes (`"C"`), as SQLite's do, whatever the
/// database's locale, so definitions come in the same order from both. Audit ids come from an identity column; the environment row an edit upserts
/// first holds concurrent edits of one environment back until it commits, so versions and audit
/// ids of an environment grow in commit order on every instance.
enum PostgresFlagSchema {
    static let migrator = PostgresMigrator(
        scope: "flags",
        [
            .init(
                "create flag environments, definitions and audit",
                sql: """
                    CREATE TABLE flag_environments(
                        env_key text PRIMARY KEY,
                        version bigint NOT NULL);
                    CREATE TABLE flag_definitions(
                        env_key text NOT NULL,
                        subject text COLLATE "C" NOT NULL,
                        key text COLLATE "C" NOT NULL,
                        definition text NOT NULL,
                        updated_at bigint NOT NULL,
                        PRIMARY KEY(env_key, subject, key));
                    CREATE TABLE flag_audit(
                        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        env_key text NOT NULL,
                        subject text NOT NULL,
                        key text NOT NULL,
                        action text NOT NULL,
                        before text,
                        after text NOT NULL,
                        version bigint NOT NULL,
                        at bigint NOT NULL);
                    CREATE INDEX flag_audit_by_env ON flag_audit(env_key, id);
                    """),
            // Rows from before this migration keep a NULL actor: nobody recorded who made them.
            .init("flag audit actor", sql: "ALTER TABLE flag_audit ADD COLUMN actor text;"),
        ])
}
