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

    /// Bundles stores.
    public init(
        sessions: any SessionStore, preKeys: any PreKeyStore, signedPreKeys: any SignedPreKeyStore,
        identities: any IdentityKeyStore
    ) {
        self.sessions = sessions
        self.preKeys = preKeys
        self.signedPreKeys = signedPreKeys
        self.identities = identities
    }
}
