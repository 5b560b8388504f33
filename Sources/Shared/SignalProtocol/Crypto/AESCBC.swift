internal import COpenSSL

/// The only place that calls OpenSSL: AES-256-CBC with PKCS#7 padding through EVP.
enum AESCBC {
    /// AES-256-CBC fetched from OpenSSL's default provider once. `EVP_aes_256_cbc()` makes
    /// OpenSSL 3 look the algorithm up again (locks and string compares) on every init, which
    /// showed in profiles of short messages.
    private final class FetchedCipher: @unchecked Sendable {
        // @unchecked: the pointer is set once here and never changed; OpenSSL's fetched
        // algorithm objects are reference counted and documented as shareable between threads.
        let pointer: OpaquePointer?
        init() { pointer = EVP_CIPHER_fetch(nil, "AES-256-CBC", nil) }
        deinit { EVP_CIPHER_free(pointer) }
    }

    private static let cipher = FetchedCipher()

    /// Owns one `EVP_CIPHER_CTX` for the duration of one operation.
    private final class Context {
        let pointer: OpaquePointer
        init() throws {
            guard let ctx = EVP_CIPHER_CTX_new() else {
                throw SignalProtocolError(.cryptoFailure, "EVP_CIPHER_CTX_new failed")
            }
            pointer = ctx
        }
        deinit { EVP_CIPHER_CTX_free(pointer) }
    }

    private static func check(_ rc: Int32, _ what: StaticString, code: SignalProtocolError.Code = .cryptoFailure) throws
    {
        guard rc == 1 else { throw SignalProtocolError(code, "\(what) failed") }
    }

    static func encrypt(key: SecretBytes, iv: SecretBytes, plaintext: [UInt8]) throws -> [UInt8] {
        try run(encrypt: true, key: key, iv: iv, input: plaintext)
    }

    /// Bad padding surfaces as `.invalidMessage`; callers check the MAC first so it cannot be
    /// used as a padding oracle.
    static func decrypt(key: SecretBytes, iv: SecretBytes, ciphertext: [UInt8]) throws -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else {
            throw SignalProtocolError(.invalidMessage, "ciphertext is not a whole number of AES blocks")
        }
        return try run(encrypt: false, key: key, iv: iv, input: ciphertext)
    }

    private static func run(encrypt: Bool, key: SecretBytes, iv: SecretBytes, input: [UInt8]) throws -> [UInt8] {
        guard key.count == 32, iv.count == 16 else {
            throw SignalProtocolError(.invalidKey, "AES-256-CBC needs a 32-byte key and a 16-byte IV")
        }
        guard input.count <= Int(Int32.max) - 32 else {
            throw SignalProtocolError(.invalidArgument, "input too large for one AES-CBC call")
        }
        let ctx = try Context()
        try key.withUnsafeBytes { k in
            try iv.withUnsafeBytes { v in
                try check(
                    EVP_CipherInit_ex(
                        ctx.pointer, cipher.pointer ?? EVP_aes_256_cbc(), nil, k.bindMemory(to: UInt8.self).baseAddress,
                        v.bindMemory(to: UInt8.self).baseAddress, encrypt ? 1 : 0), "EVP_CipherInit_ex")
            }
        }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var written: Int32 = 0
        var final: Int32 = 0
        try output.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { throw SignalProtocolError(.cryptoFailure, "no output buffer") }
            try input.withUnsafeBufferPointer { inp in
                try check(
                    EVP_CipherUpdate(ctx.pointer, base, &written, inp.baseAddress, Int32(inp.count)),
                    "EVP_CipherUpdate")
                try check(
                    EVP_CipherFinal_ex(ctx.pointer, base + Int(written), &final), "EVP_CipherFinal_ex",
                    code: encrypt ? .cryptoFailure : .invalidMessage)
            }
        }
        output.removeSubrange(Int(written + final)...)
        return output
    }
}
