internal import CSQLite

/// One SQLite connection: WAL, a busy timeout, cached prepared statements, transactions.
///
/// A connection belongs to one thread at a time; share it through `DatabasePool`, which hands it
/// to `read`/`write` closures one caller at a time.
public final class Database {
    /// How a connection is opened.
    public struct Options: Sendable {
        /// `PRAGMA synchronous`: `FULL` makes every commit durable across power loss.
        public var synchronous: String = "FULL"
        /// How long a writer waits for a lock held by another connection.
        public var busyTimeoutMilliseconds: Int32 = 5000
        /// Open read-only (reader connections of a pool).
        public var readOnly = false
        /// `PRAGMA cache_size` in KiB: pages kept in memory per connection (SQLite's default is
        /// 2 MiB, small for an index that takes random inserts).
        public var cacheSizeKiB = 65_536
        /// `PRAGMA wal_autocheckpoint` in pages: how much WAL grows before a writer copies it back.
        public var walAutocheckpointPages = 4_000
        /// `PRAGMA max_page_count`: caps the file's size, so a "disk full" can be tested (and a
        /// store bounded) without filling a real disk. `nil` leaves SQLite's default.
        public var maximumPageCount: Int?
        /// Permission bits (for example `0o600`) the database file is created with, and an existing
        /// file and its `-wal` and `-shm` files are narrowed to, before opening; SQLite gives new
        /// `-wal` and `-shm` files the database file's mode. `nil` leaves it to the umask. Ignored
        /// for `:memory:` and read-only connections.
        public var filePermissions: UInt16?

        /// Default options: WAL, `synchronous=FULL`, 5 s busy timeout.
        public init() {}
    }

    let handle: OpaquePointer
    /// The path the connection was opened with (`:memory:` for an in-memory database).
    public let path: String
    private var statements: [String: Statement] = [:]

    /// Opens (creating if needed) the database at `path`; `:memory:` opens a private in-memory one.
    /// - Throws: `DatabaseError` if the file cannot be opened or is not a database.
    public init(path: String, options: Options = Options()) throws(DatabaseError) {
        if let permissions = options.filePermissions, !options.readOnly, !path.isEmpty, path != ":memory:" {
            try Self.restrictPermissions(of: path, to: permissions)
        }
        var db: OpaquePointer?
        let flags =
            (options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            if let db { sqlite3_close_v2(db) }
            throw DatabaseError(resultCode: rc, message: message, sql: nil)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, options.busyTimeoutMilliseconds)
        do {
            if path != ":memory:" && !options.readOnly {
                try execute("PRAGMA journal_mode=WAL")
            }
            try execute("PRAGMA synchronous=\(options.synchronous)")
            try execute("PRAGMA foreign_keys=ON")
            try execute("PRAGMA cache_size=-\(options.cacheSizeKiB)")
            if !options.readOnly { try execute("PRAGMA wal_autocheckpoint=\(options.walAutocheckpointPages)") }
            if let pages = options.maximumPageCount { try execute("PRAGMA max_page_count=\(pages)") }
        } catch {
            statements.removeAll()
            sqlite3_close_v2(db)
            throw error
        }
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that return no rows.
    /// - Throws: `DatabaseError`.
    public func execute(_ sql: String) throws(DatabaseError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw DatabaseError(resultCode: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// A prepared statement for `sql`, cached for the life of the connection and reset for reuse.
    /// - Throws: `DatabaseError` if the SQL does not compile.
    public func cachedStatement(_ sql: String) throws(DatabaseError) -> Statement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows with `arguments`.
    /// - Throws: `DatabaseError`.
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws(DatabaseError) {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs a query and maps each row.
    /// - Throws: `DatabaseError`, or rethrows what `row` throws.
    public func query<T>(_ sql: String, _ arguments: [SQLValue] = [], row: (Row) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql)
        // Reset even when `row` throws: a statement left mid-step pins an old WAL snapshot.
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() {
            rows.append(try row(Row(statement: statement)))
        }
        return rows
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back if it throws.
    /// - Throws: what `body` throws, or `DatabaseError` from begin/commit.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try inTransaction(begin: "BEGIN IMMEDIATE", body)
    }

    /// Runs `body` inside `BEGIN DEFERRED … COMMIT`: its queries share one snapshot. Inside an
    /// open transaction, `body` simply runs in it.
    /// - Throws: what `body` throws, or `DatabaseError` from begin/commit.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard isAutocommit else { return try body() }
        return try inTransaction(begin: "BEGIN DEFERRED", body)
    }

    private func inTransaction<T>(begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether no transaction is open.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The row id of the last insert.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func check(_ rc: Int32, sql: String? = nil) throws(DatabaseError) {
        guard rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE else {
            throw DatabaseError(resultCode: sqlite3_extended_errcode(handle), message: lastErrorMessage, sql: sql)
        }
    }
}
