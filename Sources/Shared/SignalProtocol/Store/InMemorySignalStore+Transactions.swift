extension InMemorySignalStore: SignalStoreTransactions {
    /// The store whose transaction runs in this task or thread: a nested transaction joins it
    /// instead of waiting for itself.
    @TaskLocal private static var activeStore: ObjectIdentifier?

    /// Runs `body` while no other transaction of this store runs, so two decrypts from different
    /// addresses cannot both consume one one-time prekey. Writes are not rolled back if `body`
    /// throws halfway; `SessionCipher` writes only after everything that can fail has run.
    /// - Throws: what `body` throws.
    public func transaction<R>(_ body: (SignalStores) throws -> R) throws -> R {
        try serialized { try body(SignalStores(sessions: self, preKeys: self, signedPreKeys: self, identities: self)) }
    }

    /// Runs `body` while no other transaction of this store runs.
    /// - Throws: what `body` throws.
    public func senderKeyTransaction<R>(_ body: (any SenderKeyStore) throws -> R) throws -> R {
        try serialized { try body(self) }
    }

    private func serialized<R>(_ body: () throws -> R) throws -> R {
        let store = ObjectIdentifier(self)
        if Self.activeStore == store { return try body() }
        var outcome: Result<R, any Error>?
        transactionGate.withLock { _ in
            outcome = Self.$activeStore.withValue(store) { Result { try body() } }
        }
        guard let outcome else {
            throw SignalProtocolError(.storageFailure, "in-memory signal store transaction did not run")
        }
        return try outcome.get()
    }
}
