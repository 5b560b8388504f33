/// FNV-1a, 32-bit: the hash GrowthBook's SDKs bucket users with.
///
/// GrowthBook's JavaScript SDK feeds it UTF-16 code units (`charCodeAt`), one unit per step, and
/// its other SDKs copy that; so does this. Not cryptographic.
package enum FNV1a {
    private static let offsetBasis: UInt32 = 0x811c_9dc5
    private static let prime: UInt32 = 0x0100_0193

    /// The hash of `text`'s UTF-16 code units, each XORed in whole.
    package static func hash32(utf16 text: String) -> UInt32 {
        var hash = offsetBasis
        for unit in text.utf16 {
            hash = (hash ^ UInt32(unit)) &* prime
        }
        return hash
    }

    /// The hash of the concatenation `first + second`, without building it.
    package static func hash32(utf16 first: String, _ second: String) -> UInt32 {
        var hash = offsetBasis
        for unit in first.utf16 { hash = (hash ^ UInt32(unit)) &* prime }
        for unit in second.utf16 { hash = (hash ^ UInt32(unit)) &* prime }
        return hash
    }
}

extension FNV1a {
    /// The hash of `bytes`, one byte per step (for ETags, not buckets).
    package static func hash32(bytes: [UInt8]) -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }
}
