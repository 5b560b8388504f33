/// An error from the embedded database: SQLite's result code, its message and the statement.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// SQLite's extended result code (for example 19 for a constraint, 13 for a full disk).
    public let resultCode: Int32
    /// SQLite's message for the failure.
    public let message: String
    /// The SQL that failed, if any.
    public let sql: String?

    /// Creates an error.
    public init(resultCode: Int32, message: String, sql: String? = nil) {
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
    }

    /// The result code, for matching against `ResultCode` constants (`case .full:` also
    /// matches the extended codes of `SQLITE_FULL`).
    public var code: ResultCode { ResultCode(rawValue: resultCode) }

    /// The primary result code (the low byte of the extended one).
    public var primaryCode: Int32 { resultCode & 0xFF }

    /// Whether the disk or the database file is full (`SQLITE_FULL`).
    public var isDiskFull: Bool { ResultCode.full ~= code }

    /// Whether the file is not a database or is corrupt (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    public var isCorrupt: Bool { ResultCode.corrupt ~= code || ResultCode.notADatabase ~= code }

    /// Whether a constraint (unique key, not null…) failed.
    public var isConstraintViolation: Bool { ResultCode.constraint ~= code }

    /// `SQLite error N: message (sql)`.
    public var description: String {
        var text = "SQLite error \(resultCode): \(message)"
        if let sql { text += " (\(sql))" }
        return text
    }
}
