import Synchronization

/// In-memory implementations of every store, for tests and ephemeral clients.
///
/// Each call is atomic, and `stores` carries a transaction runner that serialises whole decrypts
/// and group operations, so one store may be shared by concurrent tasks.
public final class InMemorySignalStore: SessionStore, PreKeyStore, SignedPreKeyStore, IdentityKeyStore,
    SenderKeyStore
{
    /// How a changed remote identity key is treated.
    public typealias TrustPolicy = IdentityTrustPolicy

    private struct State {
        var sessions: [ProtocolAddress: SessionRecord] = [:]
        var preKeys: [UInt32: PreKeyRecord] = [:]
        var signedPreKeys: [UInt32: SignedPreKeyRecord] = [:]
        var identities: [ProtocolAddress: IdentityKey] = [:]
        var senderKeys: [SenderKeyName: SenderKeyRecord] = [:]
    }

    private let identity: IdentityKeyPair
    private let registrationId: UInt32
    private let policy: TrustPolicy
    private let state = Mutex(State())
    /// Held for the whole of a transaction (`InMemorySignalStore+Transactions`).
    let transactionGate = Mutex(())

    /// Creates an empty store for one device.
    public init(identity: IdentityKeyPair, registrationId: UInt32, policy: TrustPolicy = .trustOnFirstUse) {
        self.identity = identity
        self.registrationId = registrationId
        self.policy = policy
    }

    /// This store as the bundle `SessionCipher` takes, with its transaction runner.
    public var stores: SignalStores {
        SignalStores(sessions: self, preKeys: self, signedPreKeys: self, identities: self, transactions: self)
    }

    /// The record for `address`, or nil.
    public func loadSession(for address: ProtocolAddress) -> SessionRecord? {
        state.withLock { $0.sessions[address] }
    }
    /// Replaces the record for `address`.
    public func storeSession(_ record: SessionRecord, for address: ProtocolAddress) {
        state.withLock { $0.sessions[address] = record }
    }
    /// The prekey with `id`, or nil.
    public func loadPreKey(id: UInt32) -> PreKeyRecord? { state.withLock { $0.preKeys[id] } }
    /// Stores a prekey.
    public func storePreKey(_ record: PreKeyRecord) { state.withLock { $0.preKeys[record.id] = record } }
    /// Deletes a prekey.
    public func removePreKey(id: UInt32) { state.withLock { _ = $0.preKeys.removeValue(forKey: id) } }
    /// The signed prekey with `id`, or nil.
    public func loadSignedPreKey(id: UInt32) -> SignedPreKeyRecord? { state.withLock { $0.signedPreKeys[id] } }
    /// Stores a signed prekey.
    public func storeSignedPreKey(_ record: SignedPreKeyRecord) {
        state.withLock { $0.signedPreKeys[record.id] = record }
    }
    /// This device's identity key pair.
    public func identityKeyPair() -> IdentityKeyPair { identity }
    /// This device's registration id.
    public func localRegistrationId() -> UInt32 { registrationId }
    /// Records `identity`; returns true when it replaced a different key.
    @discardableResult
    public func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress) -> Bool {
        state.withLock { state in
            let previous = state.identities.updateValue(identity, forKey: address)
            return previous != nil && previous != identity
        }
    }
    /// Applies the trust policy.
    public func isTrustedIdentity(_ identity: IdentityKey, for address: ProtocolAddress, direction: IdentityDirection)
        -> Bool
    {
        switch policy {
        case .acceptChanges: return true
        case .trustOnFirstUse:
            return state.withLock { state in state.identities[address].map { $0 == identity } ?? true }
        }
    }
    /// The stored identity for `address`, or nil.
    public func identity(for address: ProtocolAddress) -> IdentityKey? { state.withLock { $0.identities[address] } }
    /// The sender key record for `name`, or nil.
    public func loadSenderKey(for name: SenderKeyName) -> SenderKeyRecord? { state.withLock { $0.senderKeys[name] } }
    /// Replaces the sender key record for `name`.
    public func storeSenderKey(_ record: SenderKeyRecord, for name: SenderKeyName) {
        state.withLock { $0.senderKeys[name] = record }
    }
}
