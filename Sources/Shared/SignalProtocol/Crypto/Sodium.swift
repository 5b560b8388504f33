internal import CSodium

/// The only place that calls libsodium: X25519, SHA-2, HMAC-SHA256, randomness, zeroing.
enum Sodium {
    /// `sodium_init` is idempotent and thread-safe; a global `let` runs it once, lazily.
    private static let initialized: Bool = sodium_init() >= 0

    static func ensureInitialized() throws {
        guard initialized else { throw SignalProtocolError(.cryptoFailure, "sodium_init failed") }
    }

    static func check(_ rc: Int32, _ what: StaticString) throws {
        guard rc == 0 else { throw SignalProtocolError(.cryptoFailure, "\(what) failed (\(rc))") }
    }

    static func zero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        sodium_memzero(base, buffer.count)
    }

    static func constantTimeEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return sodium_memcmp(pa, pb, a.count) == 0
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in constantTimeEqual(pa, pb) } }
    }

    static func randomBytes(_ count: Int) throws -> [UInt8] {
        try ensureInitialized()
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { if let base = $0.baseAddress { randombytes_buf(base, $0.count) } }
        return out
    }

    static func randomSecret(_ count: Int) throws -> SecretBytes {
        try ensureInitialized()
        return SecretBytes(count: count) { if let base = $0.baseAddress { randombytes_buf(base, $0.count) } }
    }

    /// Uniform in `0..<upperBound`.
    static func randomUniform(_ upperBound: UInt32) throws -> UInt32 {
        try ensureInitialized()
        return randombytes_uniform(upperBound)
    }

    /// X25519 public key for a 32-byte private scalar.
    static func x25519Base(_ privateKey: SecretBytes) throws -> [UInt8] {
        try ensureInitialized()
        guard privateKey.count == 32 else {
            throw SignalProtocolError(.invalidKey, "X25519 needs a 32-byte private key")
        }
        var out = [UInt8](repeating: 0, count: 32)
        let rc = privateKey.withUnsafeBytes { sk in
            out.withUnsafeMutableBufferPointer { pk -> Int32 in
                guard let skBase = sk.baseAddress, let pkBase = pk.baseAddress else { return -1 }
                return crypto_scalarmult_base(pkBase, skBase.assumingMemoryBound(to: UInt8.self))
            }
        }
        try check(rc, "crypto_scalarmult_base")
        return out
    }

    /// X25519 shared secret; fails on low-order points (all-zero output).
    static func x25519(_ privateKey: SecretBytes, _ publicKey: [UInt8]) throws -> SecretBytes {
        try ensureInitialized()
        guard publicKey.count == 32, privateKey.count == 32 else {
            throw SignalProtocolError(.invalidKey, "X25519 needs 32-byte keys")
        }
        var rc: Int32 = -1
        let shared = SecretBytes(count: 32) { out in
            rc = privateKey.withUnsafeBytes { sk in
                publicKey.withUnsafeBufferPointer { pk -> Int32 in
                    guard let outBase = out.baseAddress, let skBase = sk.baseAddress, let pkBase = pk.baseAddress
                    else { return -1 }
                    return crypto_scalarmult(
                        outBase.assumingMemoryBound(to: UInt8.self), skBase.assumingMemoryBound(to: UInt8.self), pkBase)
                }
            }
        }
        guard rc == 0 else { throw SignalProtocolError(.invalidKey, "X25519 with a low-order public key") }
        return shared
    }

    static func sha256(_ parts: [UInt8]...) -> [UInt8] {
        var state = crypto_hash_sha256_state()
        return digest(
            parts, length: 32, state: &state, crypto_hash_sha256_init, crypto_hash_sha256_update,
            crypto_hash_sha256_final)
    }

    static func sha512(_ parts: [UInt8]...) -> [UInt8] {
        sha512(parts: parts)
    }

    static func sha512(parts: [[UInt8]]) -> [UInt8] {
        var state = crypto_hash_sha512_state()
        return digest(
            parts, length: 64, state: &state, crypto_hash_sha512_init, crypto_hash_sha512_update,
            crypto_hash_sha512_final)
    }

    /// Streams `parts` through one of libsodium's init/update/final hash interfaces.
    private static func digest<State>(
        _ parts: [[UInt8]], length: Int, state: inout State,
        _ start: (UnsafeMutablePointer<State>) -> Int32,
        _ update: (UnsafeMutablePointer<State>, UnsafePointer<UInt8>, UInt64) -> Int32,
        _ finish: (UnsafeMutablePointer<State>, UnsafeMutablePointer<UInt8>) -> Int32
    ) -> [UInt8] {
        _ = start(&state)
        for part in parts {
            part.withUnsafeBufferPointer {
                if let base = $0.baseAddress { _ = update(&state, base, UInt64($0.count)) }
            }
        }
        var out = [UInt8](repeating: 0, count: length)
        _ = finish(&state, &out)
        return out
    }

    /// HMAC-SHA256 over the concatenation of `parts` with a key of any length (computed by
    /// OpenSSL when it can, by libsodium otherwise: the results are identical).
    static func hmacSHA256(key: UnsafeRawBufferPointer, _ parts: [UnsafeRawBufferPointer]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes { hmacSHA256(key: key, parts, into: $0) }
        return out
    }

    /// Writes the 32-byte MAC into `out`, which must hold at least 32 bytes.
    static func hmacSHA256(
        key: UnsafeRawBufferPointer, _ parts: [UnsafeRawBufferPointer], into out: UnsafeMutableRawBufferPointer
    ) {
        guard out.count >= 32, let outBase = out.baseAddress else { return }
        if OpenSSLHMAC.mac(key: key, parts, into: out) { return }
        var state = crypto_auth_hmacsha256_state()
        if let keyBase = key.baseAddress, key.count > 0 {
            crypto_auth_hmacsha256_init(&state, keyBase.assumingMemoryBound(to: UInt8.self), key.count)
        } else {
            // An empty HMAC key is the same as a block of zeros; libsodium wants a non-null pointer.
            var zero: UInt8 = 0
            crypto_auth_hmacsha256_init(&state, &zero, 0)
        }
        for part in parts {
            guard let base = part.baseAddress, part.count > 0 else { continue }
            crypto_auth_hmacsha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(part.count))
        }
        crypto_auth_hmacsha256_final(&state, outBase.assumingMemoryBound(to: UInt8.self))
        withUnsafeMutableBytes(of: &state) { zero($0) }
    }

    /// HMAC-SHA256 whose output is itself secret (chain keys, message key seeds).
    static func hmacSHA256Secret(key: SecretBytes, _ data: [UInt8]) -> SecretBytes {
        key.withUnsafeBytes { k in
            data.withUnsafeBytes { d in SecretBytes(count: 32) { hmacSHA256(key: k, [d], into: $0) } }
        }
    }

    static func hmacSHA256(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        key.withUnsafeBytes { k in data.withUnsafeBytes { d in hmacSHA256(key: k, [d]) } }
    }

    static func hmacSHA256(key: SecretBytes, _ data: [UInt8]) -> [UInt8] {
        key.withUnsafeBytes { k in data.withUnsafeBytes { d in hmacSHA256(key: k, [d]) } }
    }
}
