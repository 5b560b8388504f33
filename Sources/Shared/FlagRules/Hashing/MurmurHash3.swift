/// MurmurHash3, x86 32-bit variant: the hash Unleash's SDKs bucket users with.
///
/// Not cryptographic: it spreads ids evenly over buckets, nothing more. It can hash several
/// pieces as if they were one string, so `"group:id"` is hashed without building it.
package struct MurmurHash3: Sendable {
    private static let c1: UInt32 = 0xcc9e_2d51
    private static let c2: UInt32 = 0x1b87_3593

    private var hash: UInt32
    private var tail: UInt32 = 0
    private var tailCount = 0
    private var length: UInt32 = 0

    /// Starts a hash with `seed` (Unleash uses 0 for strategies).
    package init(seed: UInt32 = 0) { hash = seed }

    /// The hash of `bytes`.
    package static func hash<Bytes: Sequence>(_ bytes: Bytes, seed: UInt32 = 0) -> UInt32 where Bytes.Element == UInt8 {
        var hasher = MurmurHash3(seed: seed)
        hasher.combine(bytes)
        return hasher.finalize()
    }

    /// Appends bytes.
    package mutating func combine<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { combine(byte: byte) }
    }

    /// Appends one byte; every fourth completes a little-endian block.
    @inline(__always)
    package mutating func combine(byte: UInt8) {
        tail |= UInt32(byte) << (8 * UInt32(tailCount))
        tailCount += 1
        length &+= 1
        if tailCount == 4 {
            hash ^= Self.mix(tail)
            hash = (hash << 13 | hash >> 19) &* 5 &+ 0xe654_6b64
            tail = 0
            tailCount = 0
        }
    }

    /// The hash of everything appended.
    package func finalize() -> UInt32 {
        var h = hash
        if tailCount > 0 { h ^= Self.mix(tail) }
        h ^= length
        h ^= h >> 16
        h &*= 0x85eb_ca6b
        h ^= h >> 13
        h &*= 0xc2b2_ae35
        h ^= h >> 16
        return h
    }

    @inline(__always)
    private static func mix(_ block: UInt32) -> UInt32 {
        var k = block &* c1
        k = k << 15 | k >> 17
        return k &* c2
    }
}
