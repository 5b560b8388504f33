extension AttachmentCipher {
    /// Length of the SHA-256 digest carried in the message.
    public static let digestLength = 32

    /// The SHA-256 of an encrypted blob, as `Sealed.digest` holds it.
    public static func digest(of blob: [UInt8]) -> [UInt8] { Sodium.sha256(blob) }

    /// Whether `blob` hashes to `digest`, compared in constant time; lets a downloader refuse a
    /// swapped or damaged file before any key touches it.
    public static func digestMatches(_ blob: [UInt8], _ digest: [UInt8]) -> Bool {
        digest.count == digestLength && Sodium.constantTimeEqual(Sodium.sha256(blob), digest)
    }

    /// The exact blob length `encrypt` produces for `plaintextLength` bytes: IV, the padded bucket
    /// plus PKCS#7's 1 to 16 bytes, and the MAC. A download of any other length is refused unread.
    public static func encryptedLength(forPlaintextLength plaintextLength: Int) -> Int {
        let padded = paddedLength(for: max(0, plaintextLength))
        return 16 + (padded / 16 + 1) * 16 + 32
    }
}
