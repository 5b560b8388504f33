/// A Curve25519 key pair (ratchet keys, base keys, prekeys).
public struct KeyPair: Sendable {
    /// The public half.
    public let publicKey: PublicKey
    /// The private half.
    public let privateKey: PrivateKey

    /// Pairs a private key with its public key, recomputing the public key.
    public init(privateKey: PrivateKey) throws {
        self.privateKey = privateKey
        self.publicKey = try privateKey.publicKey()
    }

    /// A fresh random key pair.
    public static func generate() throws -> KeyPair {
        try KeyPair(privateKey: .generate())
    }
}
