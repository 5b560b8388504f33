internal import CSodium

extension Sodium {
    /// What a sealed box adds to its plaintext: the ephemeral public key and the MAC.
    static let sealedBoxOverhead = 48

    /// libsodium's sealed box (`crypto_box_seal`: an ephemeral X25519 key, XSalsa20-Poly1305):
    /// only the holder of `publicKey`'s private half can open it, and the sender stays anonymous.
    static func sealedBox(_ plaintext: SecretBytes, to publicKey: [UInt8]) throws -> [UInt8] {
        try ensureInitialized()
        guard publicKey.count == 32 else { throw SignalProtocolError(.invalidKey, "a sealed box needs a 32-byte key") }
        var output = [UInt8](repeating: 0, count: plaintext.count + sealedBoxOverhead)
        let rc = plaintext.withUnsafeBytes { m -> Int32 in
            crypto_box_seal(&output, m.bindMemory(to: UInt8.self).baseAddress, UInt64(m.count), publicKey)
        }
        try check(rc, "crypto_box_seal")
        return output
    }

    /// Opens a sealed box with the recipient's key pair; the plaintext goes straight into
    /// zero-on-free storage.
    /// - Throws: `.invalidMAC` when the box was not sealed to this key or was altered.
    static func openSealedBox(_ box: [UInt8], publicKey: [UInt8], privateKey: SecretBytes) throws -> SecretBytes {
        try ensureInitialized()
        guard publicKey.count == 32, privateKey.count == 32 else {
            throw SignalProtocolError(.invalidKey, "a sealed box needs 32-byte keys")
        }
        guard box.count > sealedBoxOverhead else {
            throw SignalProtocolError(.invalidMAC, "a sealed box holds nothing beyond its key and tag")
        }
        return try SecretBytes(count: box.count - sealedBoxOverhead) { out in
            guard let base = out.baseAddress else { throw SignalProtocolError(.cryptoFailure, "no output buffer") }
            let rc = privateKey.withUnsafeBytes { sk -> Int32 in
                guard let secret = sk.bindMemory(to: UInt8.self).baseAddress else { return -1 }
                return crypto_box_seal_open(
                    base.assumingMemoryBound(to: UInt8.self), box, UInt64(box.count), publicKey, secret)
            }
            guard rc == 0 else { throw SignalProtocolError(.invalidMAC, "the sealed box does not open with this key") }
        }
    }
}
