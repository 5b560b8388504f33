/// A PostgreSQL failure: the server's SQLSTATE and message, or a connection that could not be
/// made or was lost (SQLSTATE class `08`).
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE (`23505` for a unique violation); `08006` when the connection
    /// failed without the server saying why.
    public let sqlState: String
    /// The server's (or libpq's) message.
    public let message: String
    /// The server's detail line, if any.
    public let detail: String?
    /// The statement that failed, if any.
    public let sql: String?

    /// Creates an error.
    public init(sqlState: String, message: String, detail: String? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.sql = sql
    }

    /// A unique or primary key constraint failed.
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// Any integrity constraint failed (class `23`).
    public var isConstraintViolation: Bool { sqlState.hasPrefix("23") }
    /// A lock was not granted within the session's `lock_timeout` (`55P03`): another
    /// transaction held it; the statement may be tried again later.
    public var isLockTimeout: Bool { sqlState == "55P03" }
    /// A serializable transaction or a deadlock lost: the transaction may be retried whole.
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }
    /// The server's disk is full (`53100`).
    public var isDiskFull: Bool { sqlState == "53100" }
    /// The connection failed or was lost (class `08`, or the server shutting down, `57P01`…`57P03`).
    public var isConnectionFailure: Bool { sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState) }

    /// `PostgreSQL error SQLSTATE: message (sql)`.
    public var description: String {
        var text = "PostgreSQL error \(sqlState): \(message)"
        if let detail { text += " — \(detail)" }
        if let sql { text += " (\(sql))" }
        return text
    }
}
