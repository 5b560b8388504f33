/// Decides sampling per user or session with a stable hash, so a funnel is kept whole or not at
/// all, and the decision is the same on every launch and every platform.
package enum Sampler {
    /// 64-bit FNV-1a of the UTF-8 bytes: stable across processes, unlike Swift's seeded `hashValue`.
    package static func fnv1a(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// FNV-1a finished with MurmurHash3's 64-bit mixer, so ids that differ only in their last
    /// characters (sequential session ids) still spread evenly over `% 10000`.
    package static func stableHash(_ id: String) -> UInt64 {
        var h = fnv1a(id)
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }

    /// Whether `id` is inside a sample of `rate` percent: `hash(id) % 10000 < rate × 100`
    /// (the `hash % 100 < rate` rule, with two more digits for fractional rates).
    package static func isSampled(_ id: String, rate: Double) -> Bool {
        if rate >= 100 { return true }
        if rate <= 0 { return false }
        return stableHash(id) % 10_000 < UInt64((rate * 100).rounded())
    }
}
