internal import CXEdDSA

/// The only place that calls libxeddsa: XEdDSA signatures with Curve25519 keys.
enum XEdDSA {
    /// `xeddsa_init` must run once before any other call; a global `let` does it lazily. It
    /// returns `sodium_init`'s result, which is 1 when libsodium was already initialised.
    private static let initialized: Bool = xeddsa_init() >= 0

    static let signatureLength = 64

    /// Signs `message` with a Curve25519 private key as the XEdDSA specification describes: the
    /// scalar is negated when needed so that the Edwards public key has sign bit 0, which every
    /// verifier (libsignal's old and new) accepts.
    static func sign(privateKey: SecretBytes, message: [UInt8]) throws -> [UInt8] {
        guard initialized else { throw SignalProtocolError(.cryptoFailure, "xeddsa_init failed") }
        guard privateKey.count == 32 else {
            throw SignalProtocolError(.invalidKey, "XEdDSA needs a 32-byte private key")
        }
        guard message.count <= Int(UInt32.max) else {
            throw SignalProtocolError(.invalidArgument, "message too long to sign")
        }
        let nonce = try Sodium.randomSecret(64)
        var signature = [UInt8](repeating: 0, count: signatureLength)
        let forced = SecretBytes(count: 32) { out in
            privateKey.withUnsafeBytes { sk in
                priv_force_sign(
                    out.bindMemory(to: UInt8.self).baseAddress, sk.bindMemory(to: UInt8.self).baseAddress, false)
            }
        }
        forced.withUnsafeBytes { sk in
            nonce.withUnsafeBytes { n in
                message.withUnsafeBufferPointer { m in
                    ed25519_priv_sign(
                        &signature, sk.bindMemory(to: UInt8.self).baseAddress, m.baseAddress, UInt32(m.count),
                        n.bindMemory(to: UInt8.self).baseAddress)
                }
            }
        }
        return signature
    }

    /// Verifies an XEdDSA signature over `message` by a 32-byte Curve25519 public key.
    ///
    /// The top bit of the last signature byte selects the Edwards sign bit, as libsignal's
    /// `curve25519_verify` does; spec-conforming signatures always have it clear.
    static func verify(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Bool {
        guard initialized, publicKey.count == 32, signature.count == signatureLength,
            message.count <= Int(UInt32.max)
        else { return false }
        let signBit = signature[63] & 0x80 != 0
        var cleared = signature
        cleared[63] &= 0x7F
        var edwards = [UInt8](repeating: 0, count: 32)
        curve25519_pub_to_ed25519_pub(&edwards, publicKey, signBit)
        let rc = message.withUnsafeBufferPointer { m in
            ed25519_verify(cleared, edwards, m.baseAddress, UInt32(m.count))
        }
        return rc == 0
    }
}
