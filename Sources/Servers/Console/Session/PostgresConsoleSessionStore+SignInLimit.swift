import CourierCore
import CourierHTTP
import CourierPostgres

extension PostgresConsoleSessionStore {
    /// The bucket after refilling at `$4` per second since its last attempt, up to the burst `$2`.
    private static let refilled =
        "LEAST($2::float8, l.tokens + GREATEST(0, $3::bigint - l.updated_at)::float8 / 1000.0 * $4::float8)"

    /// One statement: spends a token of the client's bucket (made full when new) and says whether
    /// there was one; it also deletes up to 64 buckets idle long enough to be full again, which
    /// is what a missing row stands for, so the table holds only clients seen within one refill.
    private static let take = """
        WITH idle AS (
            DELETE FROM console_sign_in_limits WHERE key_digest IN (
                SELECT key_digest FROM console_sign_in_limits
                WHERE updated_at < $5::bigint AND key_digest <> $1 LIMIT 64))
        INSERT INTO console_sign_in_limits AS l (key_digest, tokens, updated_at, allowed)
        VALUES ($1, $2::float8 - 1, $3::bigint, true)
        ON CONFLICT (key_digest) DO UPDATE SET
            tokens = \(refilled) - CASE WHEN \(refilled) >= 1 THEN 1 ELSE 0 END,
            allowed = \(refilled) >= 1,
            updated_at = GREATEST(l.updated_at, $3::bigint)
        RETURNING allowed, tokens
        """

    /// See `ConsoleSessionStore.takeSignInAttempt(keyDigest:limit:now:)`: one round trip, and
    /// two instances' attempts at once take turns on the bucket's row.
    public func takeSignInAttempt(keyDigest: [UInt8], limit: RateLimit, now: Int64) async throws
        -> RateLimiter.Decision?
    {
        let perSecond = max(limit.perSecond, 1e-9)
        let burst = max(limit.burst, 1)
        let refillMilliseconds = Int64(min(burst / perSecond * 1_000, 1e15))
        let arguments: [SQLValue] = [
            .blob(keyDigest), .real(burst), .integer(now), .real(perSecond), .integer(now - refillMilliseconds),
        ]
        let rows = try await pool.withConnection { db in
            try db.query(Self.take, arguments) { row in (allowed: row.int(0) != 0, tokens: row.double(1)) }
        }
        guard let row = rows.first, !row.allowed else { return .allowed }
        return .limited(retryAfterSeconds: max(1, Int(((1 - row.tokens) / perSecond).rounded(.up))))
    }
}
