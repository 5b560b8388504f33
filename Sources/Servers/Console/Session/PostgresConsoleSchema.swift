import CourierCore
import CourierPostgres

/// The console's sessions table on PostgreSQL: the digest of each session id, its CSRF token and
/// its expiry (see `PostgresConsoleSessionStore`).
enum PostgresConsoleSchema {
    static let migrator = PostgresMigrator(
        scope: "console",
        [
            .init(
                "create console sessions",
                sql: """
                    CREATE TABLE console_sessions(
                        id_digest bytea PRIMARY KEY,
                        csrf_token text NOT NULL,
                        expires_at bigint NOT NULL);
                    CREATE INDEX console_sessions_by_expiry ON console_sessions(expires_at);
                    """)
        ])
}
