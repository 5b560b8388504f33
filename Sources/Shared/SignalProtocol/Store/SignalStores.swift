/// The stores a session needs, bundled.
public struct SignalStores: Sendable {
    /// Sessions.
    public let sessions: any SessionStore
    /// One-time prekeys.
    public let preKeys: any PreKeyStore
    /// Signed prekeys.
    public let signedPreKeys: any SignedPreKeyStore
    /// Identities.
    public let identities: any IdentityKeyStore
    /// Makes multi-step updates atomic (and serialises them against each other); when nil the
    /// steps simply run in order, and the caller must not use the stores from two threads at once.
    public let transactions: (any SignalStoreTransactions)?

    /// Bundles stores.
    /// - Parameter transactions: the transaction runner; it must hand its `body` stores backed by
    ///   the same data as these.
    public init(
        sessions: any SessionStore, preKeys: any PreKeyStore, signedPreKeys: any SignedPreKeyStore,
        identities: any IdentityKeyStore, transactions: (any SignalStoreTransactions)? = nil
    ) {
        self.sessions = sessions
        self.preKeys = preKeys
        self.signedPreKeys = signedPreKeys
        self.identities = identities
        self.transactions = transactions
    }

    /// Runs `body` atomically when a transaction runner is set, else directly with these stores.
    /// - Throws: what `body` or the runner throws.
    public func transaction<R>(_ body: (SignalStores) throws -> R) throws -> R {
        guard let transactions else { return try body(self) }
        return try transactions.transaction(body)
    }
}
