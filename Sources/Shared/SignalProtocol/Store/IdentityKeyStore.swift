/// Whether a key is about to be used to send to, or was received from, a remote device.
public enum IdentityDirection: Sendable {
    /// Encrypting or starting a session.
    case sending
    /// Decrypting.
    case receiving
}

/// Our identity and the identities we have seen, with the trust decision.
public protocol IdentityKeyStore: Sendable {
    /// This device's identity key pair.
    func identityKeyPair() throws -> IdentityKeyPair
    /// This device's registration id.
    func localRegistrationId() throws -> UInt32
    /// Records `identity` for `address`.
    /// - Returns: true when a different key was stored before (the peer's key changed).
    @discardableResult
    func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress) throws -> Bool
    /// Whether `identity` may be used with `address`.
    func isTrustedIdentity(_ identity: IdentityKey, for address: ProtocolAddress, direction: IdentityDirection) throws
        -> Bool
    /// The stored identity for `address`, or nil.
    func identity(for address: ProtocolAddress) throws -> IdentityKey?
}
