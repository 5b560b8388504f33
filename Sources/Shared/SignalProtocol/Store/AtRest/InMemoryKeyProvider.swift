/// A storage key held only in memory: for tests and for stores that must not outlive the process.
public struct InMemoryKeyProvider: KeyProvider {
    private let key: SecretBytes

    /// A fresh random key.
    /// - Throws: `.cryptoFailure` when the random generator cannot start.
    public init() throws {
        key = try Sodium.randomSecret(Sodium.aeadKeyLength)
    }

    /// A given key.
    /// - Throws: `.invalidKey` unless it is 32 bytes.
    public init(key: SecretBytes) throws {
        guard key.count == Sodium.aeadKeyLength else {
            throw SignalProtocolError(.invalidKey, "a storage key must be 32 bytes")
        }
        self.key = key
    }

    /// The key.
    public func storageKey() -> SecretBytes { key }
}
