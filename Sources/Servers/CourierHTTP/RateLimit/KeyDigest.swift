import CourierCrypto

/// The SHA-256 of a key a client chose (a write key, an address, a header value), for tables
/// that must not grow with what clients send: 32 bytes whatever the key's length, and two keys
/// share a digest only if SHA-256 collides.
package struct KeyDigest: Hashable, Sendable {
    /// The bytes one digest holds.
    package static let byteCount = Digest.sha256Count

    private let a: UInt64
    private let b: UInt64
    private let c: UInt64
    private let d: UInt64

    /// The digest of `key`'s UTF-8 bytes.
    package init(_ key: String) {
        var key = key
        let digest: [UInt8] = key.withUTF8 { Digest.sha256(UnsafeRawBufferPointer($0)) }
        func word(_ start: Int) -> UInt64 {
            digest[start..<start + 8].reduce(0) { $0 << 8 | UInt64($1) }
        }
        a = word(0)
        b = word(8)
        c = word(16)
        d = word(24)
    }
}
