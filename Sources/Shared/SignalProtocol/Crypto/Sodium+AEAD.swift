internal import CSodium

extension Sodium {
    static let aeadKeyLength = 32
    static let aeadNonceLength = 24
    static let aeadTagLength = 16

    /// XChaCha20-Poly1305 (IETF): `ciphertext ‖ tag` of `plaintext`, binding `associatedData`.
    static func aeadSeal(key: SecretBytes, nonce: [UInt8], associatedData: [UInt8], plaintext: SecretBytes) throws
        -> [UInt8]
    {
        try ensureInitialized()
        guard key.count == aeadKeyLength, nonce.count == aeadNonceLength else {
            throw SignalProtocolError(.invalidKey, "XChaCha20-Poly1305 needs a 32-byte key and a 24-byte nonce")
        }
        var output = [UInt8](repeating: 0, count: plaintext.count + aeadTagLength)
        var written: UInt64 = 0
        let rc = key.withUnsafeBytes { k in
            plaintext.withUnsafeBytes { m -> Int32 in
                guard let keyBase = k.bindMemory(to: UInt8.self).baseAddress else { return -1 }
                return crypto_aead_xchacha20poly1305_ietf_encrypt(
                    &output, &written, m.bindMemory(to: UInt8.self).baseAddress, UInt64(m.count), associatedData,
                    UInt64(associatedData.count), nil, nonce, keyBase)
            }
        }
        try check(rc, "crypto_aead_xchacha20poly1305_ietf_encrypt")
        return output
    }

    /// Opens `ciphertext ‖ tag`; the plaintext goes straight into zero-on-free storage.
    /// - Throws: `.invalidMAC` when the tag, key, nonce or associated data do not match.
    static func aeadOpen(key: SecretBytes, nonce: [UInt8], associatedData: [UInt8], ciphertext: ArraySlice<UInt8>)
        throws -> SecretBytes
    {
        try ensureInitialized()
        guard key.count == aeadKeyLength, nonce.count == aeadNonceLength else {
            throw SignalProtocolError(.invalidKey, "XChaCha20-Poly1305 needs a 32-byte key and a 24-byte nonce")
        }
        guard ciphertext.count > aeadTagLength else {
            throw SignalProtocolError(.invalidMAC, "sealed data holds nothing beyond its tag")
        }
        return try SecretBytes(count: ciphertext.count - aeadTagLength) { out in
            guard let base = out.baseAddress else { throw SignalProtocolError(.cryptoFailure, "no output buffer") }
            var written: UInt64 = 0
            let rc = key.withUnsafeBytes { k in
                ciphertext.withUnsafeBufferPointer { c -> Int32 in
                    guard let keyBase = k.bindMemory(to: UInt8.self).baseAddress, let input = c.baseAddress else {
                        return -1
                    }
                    return crypto_aead_xchacha20poly1305_ietf_decrypt(
                        base.assumingMemoryBound(to: UInt8.self), &written, nil, input, UInt64(c.count),
                        associatedData, UInt64(associatedData.count), nonce, keyBase)
                }
            }
            guard rc == 0, written == UInt64(out.count) else {
                throw SignalProtocolError(.invalidMAC, "sealed data does not authenticate")
            }
        }
    }
}
