internal import COpenSSL

/// SHA-256 through OpenSSL, for disk cache file names.
enum SHA256 {
    /// The lowercase hex digest of `text`'s UTF-8 bytes.
    static func hex(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let bytes = Array(text.utf8)
        let ok = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, &length, EVP_sha256(), nil) }
        // EVP_Digest over memory with a built-in digest fails only without memory; an empty name
        // would then be refused by the disk cache rather than collide.
        guard ok == 1 else { return "" }
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
