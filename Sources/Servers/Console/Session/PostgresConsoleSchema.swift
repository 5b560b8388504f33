import CourierCore
import CourierPostgres

/// The console's tables on PostgreSQL: sessions (the digest of each session id, its CSRF token
/// and its expiry) and the sign-in limits' token buckets by digest of the client's address (see
/// `PostgresConsoleSessionStore`).
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
                    """),
            .init(
                "create console sign-in limits",
                sql: """
                    CREATE TABLE console_sign_in_limits(
                        key_digest bytea PRIMARY KEY,
                        tokens double precision NOT NULL,
                        updated_at bigint NOT NULL,
                        allowed boolean NOT NULL);
                    CREATE INDEX console_sign_in_limits_by_age ON console_sign_in_limits(updated_at);
                    """),
        ])
}
