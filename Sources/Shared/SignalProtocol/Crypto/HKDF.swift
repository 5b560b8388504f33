/// HKDF (RFC 5869) with HMAC-SHA256, as libsignal uses for protocol version 3.
package enum HKDF {
    /// Derives `length` bytes of output keying material.
    /// - Parameters:
    ///   - inputKeyMaterial: the secret input (IKM).
    ///   - salt: optional salt; empty means 32 zero bytes, which HMAC treats identically.
    ///   - info: context string.
    ///   - length: at most 255 × 32 bytes.
    /// - Throws: `.invalidArgument` when `length` is out of range.
    package static func deriveSecrets(
        inputKeyMaterial: SecretBytes, salt: [UInt8] = [], info: [UInt8], length: Int
    ) throws -> SecretBytes {
        try deriveSecrets(inputKeyMaterial: inputKeyMaterial, salt: SecretBytes(salt), info: info, length: length)
    }

    /// Derives `length` bytes with a secret salt (the Double Ratchet's root key).
    package static func deriveSecrets(
        inputKeyMaterial: SecretBytes, salt: SecretBytes, info: [UInt8], length: Int
    ) throws -> SecretBytes {
        guard length >= 0, length <= 255 * 32 else {
            throw SignalProtocolError(.invalidArgument, "HKDF output length out of range")
        }
        let prk = salt.withUnsafeBytes { s in
            inputKeyMaterial.withUnsafeBytes { ikm in
                SecretBytes(count: 32) { Sodium.hmacSHA256(key: s, [ikm], into: $0) }
            }
        }
        return SecretBytes(count: length) { out in
            // T(i) = HMAC(PRK, T(i-1) ‖ info ‖ i) is computed in one scratch block, zeroed when done;
            // HMAC reads T(i-1) from it before writing T(i) over it.
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 1)
            block.initializeMemory(as: UInt8.self, repeating: 0)
            defer {
                Sodium.zero(block)
                block.deallocate()
            }
            var offset = 0
            var counter: UInt8 = 1
            prk.withUnsafeBytes { key in
                while offset < length {
                    let previous = UnsafeRawBufferPointer(rebasing: block[0..<(counter == 1 ? 0 : 32)])
                    info.withUnsafeBytes { i in
                        withUnsafeBytes(of: counter) { c in Sodium.hmacSHA256(key: key, [previous, i, c], into: block) }
                    }
                    let take = min(32, length - offset)
                    UnsafeMutableRawBufferPointer(rebasing: out[offset..<(offset + take)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: block[0..<take]))
                    offset += take
                    counter &+= 1
                }
            }
        }
    }

    /// Convenience over plain byte arrays, for tests and non-secret inputs.
    package static func deriveSecrets(inputKeyMaterial: [UInt8], salt: [UInt8] = [], info: [UInt8], length: Int) throws
        -> [UInt8]
    {
        try deriveSecrets(inputKeyMaterial: SecretBytes(inputKeyMaterial), salt: salt, info: info, length: length)
            .unsafeCopiedBytes
    }
}
