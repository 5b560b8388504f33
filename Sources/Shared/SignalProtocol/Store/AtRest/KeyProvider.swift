/// Supplies the key that encrypts a persistent store's records at rest.
///
/// `SQLiteSignalStore` asks once, when it opens, and seals every record blob (sessions, prekeys,
/// signed prekeys, sender keys, this device's identity key pair) with it. Keep the key somewhere
/// other than the database: a copied database, or an old copy of its write-ahead log, is then
/// useless without it. Implementations: `KeychainKeyProvider` (Apple platforms),
/// `FileKeyProvider` (a file only the owner can read) and `InMemoryKeyProvider` (tests).
///
/// ```swift
/// let keys = FileKeyProvider(path: dataDirectory + "/signal.key")
/// let store = try SQLiteSignalStore(
///     path: dataDirectory + "/signal.sqlite", keyProvider: keys, identity: identity, registrationId: id)
/// ```
public protocol KeyProvider: Sendable {
    /// The 32-byte storage key: created on first use, the same key on every later call.
    /// - Throws: `SignalProtocolError(.storageFailure)` when the key cannot be read or created.
    func storageKey() throws -> SecretBytes
}
