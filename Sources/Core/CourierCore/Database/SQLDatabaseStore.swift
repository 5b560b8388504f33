/// A store on one of the engines, as its logic written once against `SQLConnection` sees it:
/// how the store opens a write transaction, reads, and runs a single write. A module's own
/// protocol refines it with that logic (`MessengerDatabaseStore`, `SyncDatabaseStore`…), and each
/// engine's store only says how its pool does these three things.
package protocol SQLDatabaseStore {
    /// The engine's connection.
    associatedtype Connection: SQLConnection

    /// Runs `body` in one write transaction: all of it commits, or none of it.
    func writing<T>(_ body: (Connection) throws -> T) throws -> T

    /// Runs `body` to read.
    func reading<T>(_ body: (Connection) throws -> T) throws -> T

    /// Runs `body`, one write statement, as its own transaction.
    func writingOne<T>(_ body: (Connection) throws -> T) throws -> T
}

extension SQLDatabaseStore {
    /// Runs `body` in a write transaction, for stores whose single writes need nothing lighter.
    package func writingOne<T>(_ body: (Connection) throws -> T) throws -> T { try writing(body) }
}
