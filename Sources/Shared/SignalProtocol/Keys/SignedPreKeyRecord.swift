/// A medium-term prekey signed by the identity key.
public struct SignedPreKeyRecord: Sendable {
    /// Identifier published with the key.
    public let id: UInt32
    /// The key pair.
    public let keyPair: KeyPair
    /// XEdDSA signature by the identity key over the 33-byte serialized public key.
    public let signature: [UInt8]
    /// Creation time in milliseconds since 1970, as libsignal stores it.
    public let timestamp: UInt64

    /// Wraps existing values without checking the signature.
    public init(id: UInt32, keyPair: KeyPair, signature: [UInt8], timestamp: UInt64) {
        self.id = id
        self.keyPair = keyPair
        self.signature = signature
        self.timestamp = timestamp
    }

    /// Generates and signs a new signed prekey.
    /// - Parameters:
    ///   - identity: the signing identity.
    ///   - id: the prekey id.
    ///   - timestamp: creation time in milliseconds (from the caller's clock).
    public static func generate(identity: IdentityKeyPair, id: UInt32, timestamp: UInt64) throws -> SignedPreKeyRecord {
        let keyPair = try KeyPair.generate()
        let signature = try identity.privateKey.sign(keyPair.publicKey.serialized)
        return SignedPreKeyRecord(id: id, keyPair: keyPair, signature: signature, timestamp: timestamp)
    }
}
