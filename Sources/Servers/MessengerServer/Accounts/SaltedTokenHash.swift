import CourierCore
import SignalProtocol

/// How a device secret is kept: Signal-Server's `SaltedTokenHash`, version 2. A random 16-byte
/// salt (hex) and HKDF-SHA256 of the secret under that salt with the info `"authtoken"`, stored
/// as `2.<salt hex>.<hash hex>`.
///
/// A fast hash is enough because the secret is not a password a person chose: the device draws
/// it at random (at least 128 bits, `DeviceSecret`), so a stolen table cannot be searched, and
/// verification costs microseconds instead of Argon2id's 19 MiB and tens of milliseconds.
struct SaltedTokenHash: Sendable {
    static let prefix = "2."
    private static let info = Array("authtoken".utf8)
    private static let saltBytes = 16
    private static let hashBytes = 32

    /// The salt as stored: hex, whose UTF-8 bytes are HKDF's salt (as Signal-Server does).
    let salt: String
    /// The derived bytes.
    let hash: [UInt8]

    /// A fresh salt and the hash of `secret` under it.
    init(hashing secret: String) {
        salt = Hex.encode(SodiumRandom.bytes(Self.saltBytes))
        hash = Self.derive(secret, salt: salt)
    }

    /// Parses a stored `2.<salt>.<hash>`; `nil` for anything else (an Argon2id string).
    init?(encoded: String) {
        guard encoded.hasPrefix(Self.prefix) else { return nil }
        let parts = encoded.dropFirst(Self.prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 2 * Self.saltBytes, let hash = Hex.decode(parts[1]),
            hash.count == Self.hashBytes
        else { return nil }
        salt = String(parts[0])
        self.hash = hash
    }

    /// The stored form.
    var encoded: String { Self.prefix + salt + "." + Hex.encode(hash) }

    /// Whether `secret` derives this hash (compared in constant time).
    func verify(_ secret: String) -> Bool {
        SecretBytes(Self.derive(secret, salt: salt)) == SecretBytes(hash)
    }

    private static func derive(_ secret: String, salt: String) -> [UInt8] {
        // HKDF fails only for an output length out of range; 32 bytes is not.
        (try? HKDF.deriveSecrets(
            inputKeyMaterial: Array(secret.utf8), salt: Array(salt.utf8), info: info, length: hashBytes)) ?? []
    }
}
