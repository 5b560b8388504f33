package import CourierCore

extension SQLiteSignalStore {
    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` with the session, prekey, identity and sender
    /// key stores bound to it and the transaction's own connection, so a sibling module's tables
    /// in the same file (the messenger's messages) commit or roll back with the ratchet state.
    ///
    /// The connection belongs to the transaction: use it only inside `body`, and never call this
    /// store's own methods from `body` (they throw `.storageFailure`; use the handed stores).
    /// - Throws: what `body` throws, unchanged; `.storageFailure` if the transaction cannot begin
    ///   or commit.
    package func sharedTransaction<R>(
        _ body: (_ stores: SignalStores, _ senderKeys: any SenderKeyStore, _ database: Database) throws -> R
    ) throws -> R {
        try withTransaction { scope, database in try body(scope.stores, scope, database) }
    }

    /// Runs `body` on a reader connection of the store's file (one snapshot), for a sibling
    /// module's own tables.
    /// - Throws: what `body` throws; `.storageFailure` when no reader can be opened.
    package func sharedRead<R>(_ body: (_ database: Database) throws -> R) throws -> R {
        try read("read shared tables") { try body($0.database) }
    }
}
