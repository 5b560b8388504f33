import CourierCore
import CourierPostgres

extension MessengerStoreError {
    /// Any store failure as a `MessengerStoreError`: a full disk (SQLite's or the PostgreSQL
    /// server's) is `.diskFull`, another database failure `.storage`.
    static func wrapping(_ error: any Error) -> MessengerStoreError {
        switch error {
        case let error as MessengerStoreError: error
        case let error as DatabaseError: MessengerStoreError(error.isDiskFull ? .diskFull : .storage, error.description)
        case let error as PostgresError: MessengerStoreError(error.isDiskFull ? .diskFull : .storage, error.description)
        default: MessengerStoreError(.storage, "\(error)")
        }
    }
}

/// Runs a store operation, turning its failures into `MessengerStoreError`.
@discardableResult
func storing<T>(_ body: () throws -> T) throws(MessengerStoreError) -> T {
    do {
        return try body()
    } catch {
        throw MessengerStoreError.wrapping(error)
    }
}
