/// A device's long-term identity key pair.
public struct IdentityKeyPair: Sendable {
    /// The identity key published to peers.
    public let identityKey: IdentityKey
    /// The private half.
    public let privateKey: PrivateKey

    /// Wraps an existing key pair.
    public init(keyPair: KeyPair) {
        identityKey = keyPair.publicKey
        privateKey = keyPair.privateKey
    }

    /// A fresh random identity.
    public static func generate() throws -> IdentityKeyPair {
        try IdentityKeyPair(keyPair: .generate())
    }
}
