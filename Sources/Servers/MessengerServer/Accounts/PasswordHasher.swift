import CourierCore
internal import CSodium

/// Argon2id hashes through libsodium (`crypto_pwhash_str`), the form device secrets were kept in
/// before `SaltedTokenHash`. Stored ones are still verified (each under `SlotGate`: one costs
/// the memory its encoded parameters name, 19 MiB for the old default) and replaced by a salted
/// token hash at the device's next successful sign-in; nothing new is hashed this way.
struct PasswordHasher: Sendable {
    /// Argon2id's passes.
    let operations: UInt64
    /// Argon2id's memory in bytes.
    let memoryBytes: Int

    /// The cost new credentials had: OWASP's minimum for Argon2id (19 MiB, 2 passes).
    static let standard = PasswordHasher(operations: 2, memoryBytes: 19 << 20)
    /// libsodium's minimum, for tests that make legacy credentials.
    static let fastest = PasswordHasher(
        operations: UInt64(crypto_pwhash_argon2id_OPSLIMIT_MIN), memoryBytes: Int(crypto_pwhash_argon2id_MEMLIMIT_MIN))

    private static let initialized: Bool = sodium_init() >= 0

    /// Whether `encoded` is an Argon2id string.
    static func isArgon2id(_ encoded: String) -> Bool { encoded.hasPrefix("$argon2id$") }

    /// The encoded hash of `password`, or `nil` when libsodium cannot allocate the memory.
    func hash(_ password: String) -> String? {
        guard Self.initialized else { return nil }
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let rc = password.withCString { chars in
            crypto_pwhash_str_alg(
                &out, chars, UInt64(password.utf8.count), operations, memoryBytes, crypto_pwhash_ALG_ARGON2ID13)
        }
        guard rc == 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` matches `encoded`.
    static func verify(_ password: String, against encoded: String) -> Bool {
        guard initialized else { return false }
        let stored = Array(encoded.utf8CString)
        return password.withCString { chars in
            crypto_pwhash_str_verify(stored, chars, UInt64(password.utf8.count)) == 0
        }
    }
}

/// Random bytes and hashes from libsodium for tokens and ids.
enum SodiumRandom {
    /// `count` random bytes.
    static func bytes(_ count: Int) -> [UInt8] {
        _ = sodium_init()
        var out = [UInt8](repeating: 0, count: count)
        randombytes_buf(&out, count)
        return out
    }

    /// A URL-safe random token of `count` bytes of entropy (hex).
    static func token(_ count: Int = 32) -> String { Hex.encode(bytes(count)) }

}
