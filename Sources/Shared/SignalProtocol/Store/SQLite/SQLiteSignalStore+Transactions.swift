internal import CourierCore

extension SQLiteSignalStore: SignalStoreTransactions {
    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` on the writer connection, with stores bound
    /// to that transaction; rolls back if `body` throws.
    /// - Throws: what `body` throws, unchanged; `.storageFailure` if the transaction cannot begin
    ///   or commit (then nothing was committed).
    public func transaction<R>(_ body: (SignalStores) throws -> R) throws -> R {
        try withTransaction { scope, _ in try body(scope.stores) }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` with a sender key store bound to it.
    /// - Throws: what `body` throws, unchanged; `.storageFailure` if the transaction cannot begin
    ///   or commit.
    public func senderKeyTransaction<R>(_ body: (any SenderKeyStore) throws -> R) throws -> R {
        try withTransaction { scope, _ in try body(scope) }
    }

    /// - Parameter deferringSync: the commit does not wait for an fsync of its own
    ///   (`DatabasePool.writeDeferringSync`): it becomes durable with the next synced commit or the
    ///   log's next truncation, within the `LogTruncationPolicy` window.
    func withTransaction<R>(
        deferringSync: Bool = false, _ body: (SQLiteSignalTransaction, Database) throws -> R
    ) throws -> R {
        if SQLiteSignalTransaction.activeStore == ObjectIdentifier(self) {
            throw SignalProtocolError(
                .storageFailure, "signal store transaction started inside its own transaction; use its stores")
        }
        defer { committed() }
        do {
            let result = try SQLiteSignalTransaction.$activeStore.withValue(ObjectIdentifier(self)) {
                let run = { (database: Database) throws -> R in
                    let scope = SQLiteSignalTransaction(database: database, store: self)
                    defer { scope.close() }
                    do {
                        return try body(scope, database)
                    } catch {
                        throw BodyFailure(error: error)
                    }
                }
                return try deferringSync ? pool.writeDeferringSync(run) : pool.transaction(run)
            }
            countCommit()
            return result
        } catch let failure as BodyFailure {
            throw failure.error
        } catch let error as DatabaseError {
            throw SQLiteStorageError.translate(error, "run a transaction")
        }
    }
}

/// Carries an error thrown by a transaction's body past the database layer, so a caller's own
/// `DatabaseError` is rethrown as it was and only begin/commit failures are translated.
private struct BodyFailure: Error {
    let error: any Error
}
