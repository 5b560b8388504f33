internal import CLibPQ
import CourierCore

/// One connection to a PostgreSQL server (libpq), used by one thread at a time.
///
/// Statements run as server-side prepared statements, prepared once per connection and kept by
/// their SQL text; parameters are `$1`, `$2`… and take `SQLValue`s (integers and text in text
/// format, blobs as `bytea` in binary). Results arrive in binary format (`PostgresRow`).
///
/// libpq blocks: a connection belongs to `PostgresPool`, whose async calls run it on the pool's
/// own threads, never on Swift's cooperative pool.
public final class PostgresConnection {
    let handle: OpaquePointer
    private var prepared: [String: String] = [:]
    /// Names are numbered from this and never reused, so a statement prepared again after its
    /// plan was invalidated cannot collide with a name the server still holds.
    private var preparedCount = 0
    private var savepointDepth = 0
    /// The most statements kept prepared; beyond it a statement runs unnamed (parsed each time).
    static let maximumPrepared = 512

    /// Connects to `url` (`postgres://user@host:port/database?…` or a libpq `key=value` string).
    /// - Throws: `PostgresError` (class `08`) when the server cannot be reached or refuses.
    public init(url: String) throws(PostgresError) {
        guard let connection = PQconnectdb(url) else {
            throw PostgresError(sqlState: "08006", message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(sqlState: "08006", message: message.trimmingTrailingNewlines)
        }
        handle = connection
        // Notices (a table that already exists…) go nowhere instead of to standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is still usable (not lost).
    public var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction is open (or failed and not yet rolled back).
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Runs one or more statements without parameters (a migration script).
    /// - Throws: `PostgresError`.
    public func execute(_ sql: String) throws(PostgresError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs a statement and returns how many rows it changed.
    /// - Throws: `PostgresError`.
    @discardableResult
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws(PostgresError) -> Int {
        let result = try perform(sql, arguments)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Runs a query and maps each row.
    /// - Throws: `PostgresError`, or what `row` throws.
    public func query<T>(_ sql: String, _ arguments: [SQLValue] = [], row: (PostgresRow) throws -> T) throws -> [T] {
        let result = try perform(sql, arguments)
        defer { PQclear(result) }
        let count = PQntuples(result)
        var rows: [T] = []
        rows.reserveCapacity(Int(count))
        for index in 0..<count { rows.append(try row(PostgresRow(result: result!, index: index))) }
        return rows
    }

    /// Runs `body` in a transaction: all of it commits, or none of it when `body` throws. Inside
    /// another transaction it is a savepoint (`savepoint(_:)`).
    /// - Throws: what `body` throws, or `PostgresError` from begin or commit.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint { _ in try body() } }
        return try allOrNothing(
            begin: { try execute("BEGIN") }, commit: { try execute("COMMIT") },
            rollback: { if isHealthy { try execute("ROLLBACK") } }, body)
    }

    /// Runs `body` inside a savepoint of the open transaction: when it throws, only its own
    /// changes are undone and the transaction goes on (a failed member of a group commit).
    /// - Throws: what `body` throws; `PostgresError` (`25P01`) outside a transaction.
    public func savepoint<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard isInTransaction else {
            throw PostgresError(sqlState: "25P01", message: "a savepoint needs an open transaction")
        }
        savepointDepth += 1
        let name = "courier_sp\(savepointDepth)"
        defer { savepointDepth -= 1 }
        return try allOrNothing(
            begin: { try execute("SAVEPOINT \(name)") }, commit: { try execute("RELEASE SAVEPOINT \(name)") },
            rollback: { if isHealthy { try execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)") } }
        ) { try body(self) }
    }

    /// Prepares `sql` once (by its text) and runs it with `arguments`.
    private func perform(_ sql: String, _ arguments: [SQLValue]) throws(PostgresError) -> OpaquePointer? {
        // Text travels as C strings: a U+0000 would cut it short without a word. PostgreSQL
        // cannot store one in `text` at all, so it is refused here, whole.
        for argument in arguments {
            if case .text(let text) = argument, text.utf8.contains(0) {
                throw PostgresError(
                    sqlState: "22021", message: "text holds U+0000, which PostgreSQL cannot store", sql: sql)
            }
        }
        let name = try preparedName(for: sql)
        let result = Self.withParameters(arguments) { count, values, lengths, formats in
            if let name {
                return PQexecPrepared(handle, name, count, values, lengths, formats, 1)
            }
            return PQexecParams(handle, sql, count, nil, values, lengths, formats, 1)
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            // A schema change can invalidate a prepared plan: prepare it again next time.
            if error.sqlState == "0A000" || error.sqlState == "26000", let name = prepared.removeValue(forKey: sql) {
                if !isInTransaction { try? execute("DEALLOCATE \(name)") }
            }
            throw error
        }
        return result
    }

    private func preparedName(for sql: String) throws(PostgresError) -> String? {
        if let name = prepared[sql] { return name }
        guard prepared.count < Self.maximumPrepared else { return nil }
        preparedCount += 1
        let name = "courier_s\(preparedCount)"
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    /// Throws the error a result carries, if any.
    private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) {
        guard let result else {
            throw PostgresError(
                sqlState: "08006", message: String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines, sql: sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            func field(_ code: UInt8) -> String? {
                PQresultErrorField(result, Int32(code)).map { String(cString: $0) }
            }
            throw PostgresError(
                sqlState: field(UInt8(ascii: "C")) ?? (isHealthy ? "XX000" : "08006"),
                message: field(UInt8(ascii: "M"))
                    ?? String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines,
                detail: field(UInt8(ascii: "D")), sql: sql)
        }
    }

    /// Lays the arguments out in one buffer and hands libpq pointers into it.
    private static func withParameters<R>(
        _ arguments: [SQLValue],
        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        var buffer: [UInt8] = []
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for argument in arguments {
            var bytes: [UInt8]?
            var format: Int32 = 0
            switch argument {
            case .null: bytes = nil
            case .integer(let value): bytes = Array("\(value)".utf8) + [0]
            case .real(let value): bytes = Array("\(value)".utf8) + [0]
            case .text(let value): bytes = Array(value.utf8) + [0]
            case .blob(let value):
                bytes = value
                format = 1
            }
            offsets.append(bytes.map { _ in buffer.count })
            lengths.append(Int32(format == 1 ? (bytes?.count ?? 0) : max(0, (bytes?.count ?? 1) - 1)))
            formats.append(format)
            if let bytes { buffer += bytes }
        }
        if buffer.isEmpty { buffer = [0] }
        return buffer.withUnsafeBufferPointer { storage in
            let base = UnsafeRawPointer(storage.baseAddress!).assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { $0.map { base + $0 } }
            return pointers.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(Int32(arguments.count), values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
