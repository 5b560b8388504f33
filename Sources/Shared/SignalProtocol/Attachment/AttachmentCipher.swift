/// Attachment encryption as Signal does it: a random 64-byte key (AES-256 key || HMAC-SHA256
/// key), `IV || AES-256-CBC(padded plaintext) || HMAC(IV || ciphertext)`, and a SHA-256 digest
/// of the whole blob that travels in the (end-to-end encrypted) message pointing to it.
public enum AttachmentCipher {
    /// Length of the combined key.
    public static let keyLength = 64
    private static let ivLength = 16
    private static let macLength = 32

    /// An encrypted attachment and what the recipient needs to check it.
    public struct Sealed: Sendable {
        /// `IV || ciphertext || MAC`, uploaded to the blob store.
        public let blob: [UInt8]
        /// SHA-256 of `blob`.
        public let digest: [UInt8]
        /// The unpadded plaintext length, sent beside the key so padding can be removed.
        public let plaintextLength: Int
    }

    /// A fresh random attachment key.
    public static func generateKey() throws -> SecretBytes {
        try Sodium.randomSecret(keyLength)
    }

    /// Signal's size buckets: at least 541 bytes, then steps of 5 % so sizes leak little.
    public static func paddedLength(for length: Int) -> Int {
        guard length > 0 else { return 541 }
        let bucket = Int(pow105(ceilLog105(Double(length))).rounded(.down))
        return max(541, bucket, length)
    }

    /// Pads with zeros to the bucket size and encrypts.
    /// - Parameters:
    ///   - plaintext: the attachment bytes.
    ///   - key: a 64-byte key from `generateKey()`.
    /// - Throws: `.invalidKey` for a key of the wrong length.
    public static func encrypt(_ plaintext: [UInt8], key: SecretBytes) throws -> Sealed {
        let (cipherKey, macKey) = try split(key)
        var padded = plaintext
        padded.append(contentsOf: [UInt8](repeating: 0, count: paddedLength(for: plaintext.count) - plaintext.count))
        let iv = try Sodium.randomBytes(ivLength)
        let ciphertext = try AESCBC.encrypt(key: cipherKey, iv: SecretBytes(iv), plaintext: padded)
        padded.withUnsafeMutableBytes { Sodium.zero($0) }
        let body = iv + ciphertext
        let blob = body + Sodium.hmacSHA256(key: macKey, body)
        return Sealed(blob: blob, digest: Sodium.sha256(blob), plaintextLength: plaintext.count)
    }

    /// Checks digest and MAC, then decrypts and strips the padding.
    /// - Parameters:
    ///   - blob: the downloaded bytes.
    ///   - key: the 64-byte key from the message.
    ///   - digest: the SHA-256 from the message; checked first.
    ///   - plaintextLength: the unpadded length from the message.
    /// - Throws: `.invalidMAC` when the digest or MAC does not match, `.invalidMessage` when malformed.
    public static func decrypt(_ blob: [UInt8], key: SecretBytes, digest: [UInt8], plaintextLength: Int) throws
        -> [UInt8]
    {
        let (cipherKey, macKey) = try split(key)
        guard blob.count >= ivLength + 16 + macLength else {
            throw SignalProtocolError(.invalidMessage, "attachment too short")
        }
        guard Sodium.constantTimeEqual(Sodium.sha256(blob), digest) else {
            throw SignalProtocolError(.invalidMAC, "attachment digest does not match")
        }
        let body = Array(blob[..<(blob.count - macLength)])
        guard Sodium.constantTimeEqual(Sodium.hmacSHA256(key: macKey, body), Array(blob[(blob.count - macLength)...]))
        else {
            throw SignalProtocolError(.invalidMAC, "attachment MAC does not match")
        }
        let iv = SecretBytes(body[..<ivLength])
        var plaintext = try AESCBC.decrypt(key: cipherKey, iv: iv, ciphertext: Array(body[ivLength...]))
        guard plaintextLength >= 0, plaintextLength <= plaintext.count else {
            throw SignalProtocolError(.invalidMessage, "attachment shorter than its declared length")
        }
        plaintext.removeSubrange(plaintextLength...)
        return plaintext
    }

    private static func split(_ key: SecretBytes) throws -> (SecretBytes, SecretBytes) {
        guard key.count == keyLength else { throw SignalProtocolError(.invalidKey, "attachment key must be 64 bytes") }
        return (key.slice(0..<32), key.slice(32..<64))
    }

    // Foundation-free log/pow for the bucket formula: 1.05^ceil(log_1.05(n)).
    private static func ceilLog105(_ value: Double) -> Double {
        var exponent = 0.0
        var power = 1.0
        while power < value {
            power *= 1.05
            exponent += 1
        }
        return exponent
    }

    private static func pow105(_ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(exponent)
        while remaining > 0 {
            result *= 1.05
            remaining -= 1
        }
        return result
    }
}
