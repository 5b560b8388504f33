/// An SQLite result code, primary (`SQLITE_FULL`) or extended (`SQLITE_IOERR_WRITE`).
///
/// In a `switch` or `~=`, a primary code matches every extended code built on it, so
/// `case .ioError:` also catches `SQLITE_IOERR_FSYNC`; extended codes match only themselves.
///
/// ```swift
/// switch error.code {
/// case .full: showDiskFull()
/// case .corrupt, .notADatabase: moveAside()
/// default: throw error
/// }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code as SQLite reports it.
    public let rawValue: Int32

    /// Wraps a numeric code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low byte of an extended one.
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// Whether this is a primary code (no extended bits).
    public var isPrimary: Bool { rawValue & ~0xFF == 0 }

    /// `SQLITE_OK`
    public static let ok = ResultCode(rawValue: 0)
    /// `SQLITE_ERROR`: a generic error (bad SQL, missing table…).
    public static let error = ResultCode(rawValue: 1)
    /// `SQLITE_INTERNAL`
    public static let `internal` = ResultCode(rawValue: 2)
    /// `SQLITE_PERM`
    public static let permission = ResultCode(rawValue: 3)
    /// `SQLITE_ABORT`
    public static let abort = ResultCode(rawValue: 4)
    /// `SQLITE_BUSY`: another connection holds the lock.
    public static let busy = ResultCode(rawValue: 5)
    /// `SQLITE_LOCKED`
    public static let locked = ResultCode(rawValue: 6)
    /// `SQLITE_NOMEM`
    public static let noMemory = ResultCode(rawValue: 7)
    /// `SQLITE_READONLY`
    public static let readOnly = ResultCode(rawValue: 8)
    /// `SQLITE_INTERRUPT`
    public static let interrupt = ResultCode(rawValue: 9)
    /// `SQLITE_IOERR`
    public static let ioError = ResultCode(rawValue: 10)
    /// `SQLITE_CORRUPT`: the file is damaged.
    public static let corrupt = ResultCode(rawValue: 11)
    /// `SQLITE_FULL`: the disk (or `max_page_count`) is full.
    public static let full = ResultCode(rawValue: 13)
    /// `SQLITE_CANTOPEN`
    public static let cannotOpen = ResultCode(rawValue: 14)
    /// `SQLITE_SCHEMA`
    public static let schemaChanged = ResultCode(rawValue: 17)
    /// `SQLITE_TOOBIG`
    public static let tooBig = ResultCode(rawValue: 18)
    /// `SQLITE_CONSTRAINT`: a unique key, `NOT NULL` or check failed.
    public static let constraint = ResultCode(rawValue: 19)
    /// `SQLITE_MISMATCH`
    public static let mismatch = ResultCode(rawValue: 20)
    /// `SQLITE_MISUSE`
    public static let misuse = ResultCode(rawValue: 21)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = ResultCode(rawValue: 26)
    /// `SQLITE_CONSTRAINT_UNIQUE`
    public static let uniqueConstraint = ResultCode(rawValue: 19 | (8 << 8))
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`
    public static let primaryKeyConstraint = ResultCode(rawValue: 19 | (6 << 8))
    /// `SQLITE_IOERR_FSYNC`
    public static let fsyncError = ResultCode(rawValue: 10 | (4 << 8))

    /// A primary pattern matches its extended codes; an extended pattern only itself.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primary : pattern == code
    }

    /// `SQLite result code N`.
    public var description: String { "SQLite result code \(rawValue)" }
}
