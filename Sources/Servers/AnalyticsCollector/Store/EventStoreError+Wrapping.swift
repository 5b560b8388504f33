import CourierCore
import CourierPostgres

extension EventStoreError {
    /// Classifies a PostgreSQL error: the server's disk full is `.full`, the rest `.unavailable`.
    init(_ error: PostgresError) {
        self.init(error.isDiskFull ? .full : .unavailable, detail: error.description)
    }
}

/// Runs a store operation and translates its failure (either engine's) into `EventStoreError`.
@discardableResult
func storing<T>(_ body: () throws -> T) throws(EventStoreError) -> T {
    do {
        return try body()
    } catch let error as EventStoreError {
        throw error
    } catch let error as DatabaseError {
        throw EventStoreError(error)
    } catch let error as PostgresError {
        throw EventStoreError(error)
    } catch {
        throw EventStoreError(.unavailable, detail: "\(error)")
    }
}
