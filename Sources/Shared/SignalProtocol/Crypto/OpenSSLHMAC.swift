internal import COpenSSL

/// HMAC-SHA256 through OpenSSL, whose SHA-256 uses the CPU's SHA extensions where it has them
/// (libsodium's is portable C). The ratchet computes a dozen HMACs per message, so this is most
/// of a message's cost.
enum OpenSSLHMAC {
    /// A configured context that every call copies.
    private final class Template: @unchecked Sendable {
        // @unchecked: set once in init and only ever read (EVP_MAC_CTX_dup takes a const
        // context); each MAC runs on its own copy.
        let context: OpaquePointer?
        init() { context = courier_hmac_sha256_template() }
        deinit { EVP_MAC_CTX_free(context) }
    }

    private static let template = Template()

    /// Writes HMAC-SHA256(key, parts…) into the first 32 bytes of `out`.
    /// - Returns: `false` when OpenSSL could not do it (the caller then uses libsodium).
    static func mac(
        key: UnsafeRawBufferPointer, _ parts: [UnsafeRawBufferPointer],
        into out: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard out.count >= 32, let outBase = out.baseAddress, let keyBase = key.baseAddress, !key.isEmpty,
            let template = template.context, let context = EVP_MAC_CTX_dup(template)
        else { return false }
        defer { EVP_MAC_CTX_free(context) }
        guard EVP_MAC_init(context, keyBase.assumingMemoryBound(to: UInt8.self), key.count, nil) == 1 else {
            return false
        }
        for part in parts {
            guard let base = part.baseAddress, !part.isEmpty else { continue }
            guard EVP_MAC_update(context, base.assumingMemoryBound(to: UInt8.self), part.count) == 1 else {
                return false
            }
        }
        var written = 0
        return EVP_MAC_final(context, outBase.assumingMemoryBound(to: UInt8.self), &written, 32) == 1 && written == 32
    }
}
