/// libsignal's per-identity fingerprint hash, shared by the displayable safety number and the
/// scannable (QR) fingerprint: `SHA-512(version || key || identifier || key)`, then
/// `iterations - 1` more rounds of `SHA-512(hash || key)`.
enum FingerprintHash {
    private static let fingerprintVersion: [UInt8] = [0x00, 0x00]

    /// Throws unless `iterations` is in libsignal's accepted range.
    static func validate(iterations: Int) throws {
        guard iterations > 0, iterations <= 1_000_000 else {
            throw SignalProtocolError(.invalidArgument, "fingerprint iterations out of range")
        }
    }

    /// The 64-byte hash for one side.
    static func hash(identifier: String, key: IdentityKey, iterations: Int) -> [UInt8] {
        let keyBytes = key.serialized
        var hash = fingerprintVersion + keyBytes + Array(identifier.utf8)
        for _ in 0..<iterations { hash = Sodium.sha512(hash, keyBytes) }
        return hash
    }
}
