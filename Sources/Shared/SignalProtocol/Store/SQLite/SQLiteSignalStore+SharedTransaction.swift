package import CourierCore

extension SQLiteSignalStore {
    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` with the session, prekey, identity and sender
    /// key stores bound to it and the transaction's own connection, so a sibling module's tables
    /// in the same file (the messenger's messages) commit or roll back with the ratchet state.
    ///
    /// The connection belongs to the transaction: use it only inside `body`, and never call this
    /// store's own methods from `body` (they throw `.storageFailure`; use the handed stores).
    /// - Parameter deferringSync: the commit does not wait for an fsync of its own: it survives a
    ///   crash at once, and power loss from the next synced commit or the log's next truncation
    ///   (within the `LogTruncationPolicy` window). Never for a ratchet step whose output leaves
    ///   the device: that state must be on disk before its ciphertext is sent.
    /// - Throws: what `body` throws, unchanged; `.storageFailure` if the transaction cannot begin
    ///   or commit.
    package func sharedTransaction<R>(
        deferringSync: Bool = false,
        _ body: (_ stores: SignalStores, _ senderKeys: any SenderKeyStore, _ database: Database) throws -> R
    ) throws -> R {
        try withTransaction(deferringSync: deferringSync) { scope, database in try body(scope.stores, scope, database) }
    }

    /// Runs `body` on a reader connection of the store's file (one snapshot), for a sibling
    /// module's own tables.
    /// - Throws: what `body` throws; `.storageFailure` when no reader can be opened.
    package func sharedRead<R>(_ body: (_ database: Database) throws -> R) throws -> R {
        try read("read shared tables") { try body($0.database) }
    }
}

extension SQLiteSignalStore {
    /// Seals a sibling module's secret (a device password) with this store's key, bound to
    /// `table` and `key` as the records are, so it opens only from the same place.
    /// - Throws: `.cryptoFailure` when randomness or the cipher fails.
    package func sealSecret(_ secret: SecretBytes, table: String, key: [String]) throws -> [UInt8] {
        try sealer.seal(secret, at: RecordSealer.Location(table: table, key: key))
    }

    /// Opens what `sealSecret` sealed at the same `table` and `key`.
    /// - Throws: `.invalidMAC` when the blob was changed, moved or sealed under another key.
    package func openSecret(_ blob: [UInt8], table: String, key: [String]) throws -> SecretBytes {
        try sealer.open(blob, at: RecordSealer.Location(table: table, key: key))
    }
}
