internal import CSQLite

/// A prepared statement. Owned by its `Database`; finalised when freed.
public final class Statement {
    let handle: OpaquePointer
    unowned let database: Database
    /// The statement's SQL.
    public let sql: String

    init(database: Database, sql: String) throws(DatabaseError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: rc, message: database.lastErrorMessage, sql: sql)
        }
        self.handle = statement
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement so it can run again; bindings are cleared.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to parameters 1…n.
    /// - Throws: `DatabaseError`.
    public func bind(_ values: [SQLValue]) throws(DatabaseError) {
        for (i, value) in values.enumerated() {
            try bind(value, at: Int32(i + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    /// - Throws: `DatabaseError`.
    public func bind(_ value: SQLValue, at index: Int32) throws(DatabaseError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let i): try bind(i, at: index)
        case .real(let d): try database.check(sqlite3_bind_double(handle, index, d), sql: sql)
        case .text(let s): try bind(s, at: index)
        case .blob(let b): try bind(bytes: b, at: index)
        }
    }

    /// Binds an integer.
    /// - Throws: `DatabaseError`.
    public func bind(_ value: Int64, at index: Int32) throws(DatabaseError) {
        try database.check(sqlite3_bind_int64(handle, index, value), sql: sql)
    }

    /// Binds text (copied by SQLite).
    /// - Throws: `DatabaseError`.
    public func bind(_ value: String, at index: Int32) throws(DatabaseError) {
        var value = value
        let rc = value.withUTF8 { utf8 in
            sqlite3_bind_text(
                handle, index, UnsafeRawPointer(utf8.baseAddress)?.assumingMemoryBound(to: CChar.self),
                Int32(utf8.count), courier_sqlite_transient())
        }
        try database.check(rc, sql: sql)
    }

    /// Binds UTF-8 bytes as text (copied by SQLite).
    /// - Throws: `DatabaseError`.
    public func bind(utf8Text bytes: [UInt8], at index: Int32) throws(DatabaseError) {
        let rc = bytes.withUnsafeBytes { buffer in
            let pointer = buffer.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) }
            return bytes.isEmpty
                ? sqlite3_bind_text(handle, index, "", 0, courier_sqlite_transient())
                : sqlite3_bind_text(handle, index, pointer, Int32(buffer.count), courier_sqlite_transient())
        }
        try database.check(rc, sql: sql)
    }

    /// Binds bytes as a blob (copied by SQLite).
    /// - Throws: `DatabaseError`.
    public func bind(bytes: [UInt8], at index: Int32) throws(DatabaseError) {
        let rc = bytes.withUnsafeBytes { buffer in
            sqlite3_bind_blob(
                handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                courier_sqlite_transient())
        }
        try database.check(rc, sql: sql)
    }

    /// Binds `NULL`.
    /// - Throws: `DatabaseError`.
    public func bindNull(at index: Int32) throws(DatabaseError) {
        try database.check(sqlite3_bind_null(handle, index), sql: sql)
    }

    /// Steps once.
    /// - Returns: `true` when a row is available, `false` when done.
    /// - Throws: `DatabaseError`.
    @discardableResult
    public func step() throws(DatabaseError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let error = DatabaseError(
            resultCode: sqlite3_extended_errcode(database.handle),
            message: database.lastErrorMessage, sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    /// Resets the statement and clears its bindings, then runs it to completion with `values`.
    /// - Throws: `DatabaseError`.
    public func execute(_ values: [SQLValue]) throws(DatabaseError) {
        reset()
        try bind(values)
        while try step() {}
    }
}

/// The current row of a statement, read by 0-based column index.
public struct Row {
    let statement: Statement

    /// An integer column (0 for `NULL`).
    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement.handle, column) }

    /// A double column.
    public func double(_ column: Int32) -> Double { sqlite3_column_double(statement.handle, column) }

    /// A text column, or `nil` for `NULL`.
    public func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement.handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// A column's bytes (text or blob), empty for `NULL`.
    public func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement.handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Whether a column is `NULL`.
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement.handle, column) == SQLITE_NULL }
}
