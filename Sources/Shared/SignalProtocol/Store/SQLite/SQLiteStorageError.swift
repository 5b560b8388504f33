internal import CourierCore

/// Turns the database layer's errors into `SignalProtocolError`, so no SQLite code leaves the
/// module as-is; the original stays in `underlying`.
enum SQLiteStorageError {
    /// `error` as a `.storageFailure`; the message names the operation, never key material.
    static func translate(_ error: DatabaseError, _ operation: String) -> SignalProtocolError {
        let kind: String
        switch error.primaryCode {
        case 13: kind = "the disk or database is full"  // SQLITE_FULL
        case 11, 26: kind = "the database file is corrupt or not a database"  // CORRUPT, NOTADB
        case 5, 6: kind = "the database is locked"  // BUSY, LOCKED
        default: kind = "the database failed"
        }
        return SignalProtocolError(.storageFailure, "signal store could not \(operation): \(kind)", underlying: error)
    }

    /// Runs `body`, translating a `DatabaseError` it throws; other errors pass unchanged.
    static func translating<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw translate(error, operation)
        }
    }

    /// Decodes a stored record, reporting failure as `.corruptRecord`.
    static func decode<T>(_ what: String, _ bytes: SecretBytes, _ make: (SecretBytes) throws -> T) throws -> T {
        do {
            return try make(bytes)
        } catch {
            throw SignalProtocolError(.corruptRecord, "stored \(what) cannot be decoded", underlying: error)
        }
    }
}
