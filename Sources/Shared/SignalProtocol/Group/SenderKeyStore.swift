/// Where sender key records live.
public protocol SenderKeyStore: Sendable {
    /// The record for `name`, or nil.
    func loadSenderKey(for name: SenderKeyName) throws -> SenderKeyRecord?
    /// Replaces the record for `name`.
    func storeSenderKey(_ record: SenderKeyRecord, for name: SenderKeyName) throws
    /// Runs `body` as one atomic step: no other transaction of this store runs meanwhile, and a
    /// store that can roll back does so if `body` throws. `GroupCipher` runs every
    /// load-advance-store through it, so two concurrent encrypts never use one iteration (one key
    /// and IV) twice.
    /// - Parameter body: receives the store to use inside the transaction; it must not be kept.
    /// - Throws: what `body` throws; a store's own failure to begin or commit.
    func senderKeyTransaction<R>(_ body: (any SenderKeyStore) throws -> R) throws -> R
}

extension SenderKeyStore {
    /// Runs `body` with this store directly. That is atomic only when the caller never uses the
    /// store from two threads at once; stores that may be shared implement it themselves
    /// (`InMemorySignalStore`, `SQLiteSignalStore`).
    public func senderKeyTransaction<R>(_ body: (any SenderKeyStore) throws -> R) throws -> R {
        try body(self)
    }
}
