#if canImport(COpenSSL)
    internal import COpenSSL
#elseif canImport(CryptoKit)
    import CryptoKit
#endif

/// SHA-256, one implementation for every module that needs a digest and no other crypto: rate
/// limiters' key digests, the image cache's file names, the messenger's token hashes. OpenSSL's
/// (which uses the CPU's SHA extensions) on Linux, CryptoKit's on Apple platforms.
///
/// ```swift
/// let name = Hex.encode(Digest.sha256(Array(url.utf8)))
/// ```
public enum Digest {
    /// The number of bytes a SHA-256 digest has.
    public static let sha256Count = 32

    /// The SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { sha256($0) }
    }

    /// The SHA-256 of the bytes `buffer` points to.
    public static func sha256(_ buffer: UnsafeRawBufferPointer) -> [UInt8] {
        #if canImport(COpenSSL)
            var digest = [UInt8](repeating: 0, count: sha256Count)
            var length: UInt32 = 0
            // EVP_Digest over memory with a built-in digest fails only without memory; the zero
            // digest then stands for every input, which callers treat as one shared bucket.
            guard EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_sha256(), nil) == 1 else {
                return [UInt8](repeating: 0, count: sha256Count)
            }
            return digest
        #else
            return Array(SHA256.hash(data: buffer))
        #endif
    }
}
