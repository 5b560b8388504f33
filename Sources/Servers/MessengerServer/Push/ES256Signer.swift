internal import COpenSSL

/// ES256 signatures (ECDSA on P-256 with SHA-256) through OpenSSL, in JWS's raw `r || s` form:
/// what APNs provider tokens are signed with.
final class ES256Signer: @unchecked Sendable {
    // An EVP_PKEY is safe to use from several threads for signing once loaded.
    private let key: OpaquePointer

    /// Loads a PEM private key (Apple's `.p8` file is PKCS#8 PEM).
    /// - Throws: `APNsError.invalidKey` when it is not a P-256 private key.
    init(pem: String) throws(APNsError) {
        let bytes = Array(pem.utf8)
        guard let bio = bytes.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else {
            throw APNsError.invalidKey("cannot read the key")
        }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
            throw APNsError.invalidKey("not a PEM private key")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw APNsError.invalidKey("APNs keys are P-256 EC keys")
        }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The 64-byte `r || s` signature of `message`.
    func sign(_ message: [UInt8]) throws(APNsError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw APNsError.signing }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw APNsError.signing }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { throw APNsError.signing }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else { throw APNsError.signing }
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, length)
        }
        guard let signature else { throw APNsError.signing }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        guard let r, let s,
            raw.withUnsafeMutableBufferPointer({ out in
                BN_bn2binpad(r, out.baseAddress, 32) == 32 && BN_bn2binpad(s, out.baseAddress! + 32, 32) == 32
            })
        else { throw APNsError.signing }
        return raw
    }
}
