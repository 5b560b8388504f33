/// A Curve25519 private key. Its bytes are zeroed when freed and never printed.
public struct PrivateKey: Sendable, CustomStringConvertible {
    /// The clamped 32-byte scalar.
    public let secret: SecretBytes

    /// Wraps an existing 32-byte scalar, clamping it as X25519 and libsignal do.
    /// - Throws: `.invalidKey` when the length is not 32.
    public init(secret: SecretBytes) throws {
        guard secret.count == 32 else { throw SignalProtocolError(.invalidKey, "private key must be 32 bytes") }
        self.secret = secret.withUnsafeBytes { raw in
            SecretBytes(count: 32) { out in
                out.copyMemory(from: raw)
                out[0] &= 248
                out[31] &= 127
                out[31] |= 64
            }
        }
    }

    /// A fresh random key.
    public static func generate() throws -> PrivateKey {
        try PrivateKey(secret: Sodium.randomSecret(32))
    }

    /// The matching public key.
    public func publicKey() throws -> PublicKey {
        try PublicKey(rawBytes: Sodium.x25519Base(secret))
    }

    /// X25519 key agreement.
    /// - Throws: `.invalidKey` for a low-order peer key.
    public func agree(with publicKey: PublicKey) throws -> SecretBytes {
        try Sodium.x25519(secret, publicKey.rawBytes)
    }

    /// A 64-byte XEdDSA signature over `message`.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        try XEdDSA.sign(privateKey: secret, message: message)
    }

    /// Never shows the key.
    public var description: String { "PrivateKey(redacted)" }
}
