/// Runs a group of store calls as one atomic unit: no other transaction of the store runs
/// meanwhile, and a store that can roll back (SQLite) does so when the unit fails.
///
/// `SessionCipher` and `SessionBuilder` run every multi-step update through it, so the new session
/// state, the consumed one-time prekey, the saved identity and the caller's `accept` closure
/// commit together or not at all, and two concurrent decrypts cannot both consume one prekey.
public protocol SignalStoreTransactions: Sendable {
    /// Runs `body` in one transaction with stores bound to it; commits if `body` returns and rolls
    /// back if it throws.
    /// - Parameter body: receives the stores to use inside the transaction; they must not be kept.
    /// - Throws: what `body` throws, unchanged; `SignalProtocolError(.storageFailure)` if the
    ///   transaction cannot begin or commit.
    func transaction<R>(_ body: (SignalStores) throws -> R) throws -> R
}
