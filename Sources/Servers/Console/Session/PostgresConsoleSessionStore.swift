import CourierCore
import CourierPostgres

/// The console's sessions in PostgreSQL, shared by the instances that use one database: a
/// cookie made on one instance works on the others, and signing out on one ends it everywhere.
///
/// Rows hold the SHA-256 digest of the session id, never the cookie's value. The table stays
/// bounded: each sign-in first deletes the expired rows and then those beyond the most sessions
/// kept, under a table lock so that sign-ins on two instances cannot both miss the cap (lookups
/// do not wait for it; a sign-out waits for a sign-in under way to commit).
///
/// ```swift
/// let console = Console(
///     configuration: configuration, sessions: try PostgresConsoleSessionStore(url: databaseURL))
/// ```
public final class PostgresConsoleSessionStore: ConsoleSessionStore {
    let pool: PostgresPool

    /// Connects to `url` (`postgres://…`) with up to `connections` connections and migrates the
    /// sessions table.
    /// - Throws: `PostgresError`, or `DatabaseSchemaError` when a newer build migrated the database.
    public init(url: String, connections: Int = 2) throws {
        pool = try PostgresPool(url: url, size: connections, migrator: PostgresConsoleSchema.migrator)
    }

    /// See `ConsoleSessionStore.insert(_:maximumSessions:now:)`.
    public func insert(_ session: ConsoleSessionRecord, maximumSessions: Int, now: Int64) async throws {
        try await pool.write { db in
            // Conflicts with other writers only: sign-ins take turns, lookups go on.
            try db.execute("LOCK TABLE console_sessions IN EXCLUSIVE MODE")
            try db.run("DELETE FROM console_sessions WHERE expires_at <= $1", [.integer(now)])
            try db.run(
                """
                DELETE FROM console_sessions WHERE id_digest IN (
                    SELECT id_digest FROM console_sessions ORDER BY expires_at DESC, id_digest OFFSET $1)
                """, [.integer(Int64(max(1, maximumSessions) - 1))])
            try db.run(
                "INSERT INTO console_sessions(id_digest, csrf_token, expires_at) VALUES ($1, $2, $3)",
                [.blob(session.idDigest), .text(session.csrfToken), .integer(session.expiresAtMilliseconds)])
        }
    }

    /// See `ConsoleSessionStore.session(idDigest:now:)`.
    public func session(idDigest: [UInt8], now: Int64) async throws -> ConsoleSessionRecord? {
        try await pool.withConnection { db in
            try db.query(
                "SELECT csrf_token, expires_at FROM console_sessions WHERE id_digest = $1 AND expires_at > $2",
                [.blob(idDigest), .integer(now)]
            ) { row in
                ConsoleSessionRecord(
                    idDigest: idDigest, csrfToken: row.text(0) ?? "", expiresAtMilliseconds: row.int(1))
            }.first
        }
    }

    /// See `ConsoleSessionStore.remove(idDigest:)`.
    public func remove(idDigest: [UInt8]) async throws {
        try await pool.withConnection { db in
            _ = try db.run("DELETE FROM console_sessions WHERE id_digest = $1", [.blob(idDigest)])
        }
    }
}
