/// The bucket functions of the two flag services Courier is compatible with, bit for bit.
public enum Bucketing {
    /// Unleash's `normalizedValue`: MurmurHash3 x86 32 (seed 0) over `"{groupId}:{id}"`, then
    /// `% normalizer + 1`, so a value in `1...normalizer`. A gradual rollout of `p` percent
    /// includes an id when `p > 0 && normalizedValue <= p`.
    /// - Parameters:
    ///   - id: the stickiness value (usually the user id).
    ///   - groupId: the rollout's group (Unleash defaults it to the flag name).
    ///   - normalizer: the number of buckets, 100 for percentages.
    ///   - seed: 0 for strategies (Unleash uses another seed for variants).
    public static func unleashNormalizedValue(id: String, groupId: String, normalizer: UInt32 = 100, seed: UInt32 = 0)
        -> Int
    {
        unleashNormalizedValue(id: id, prefix: unleashPrefix(groupId: groupId, seed: seed), normalizer: normalizer)
    }

    /// MurmurHash3's state after `"{groupId}:"`, which every id of one rollout shares.
    package static func unleashPrefix(groupId: String, seed: UInt32 = 0) -> MurmurHash3 {
        var hasher = MurmurHash3(seed: seed)
        hasher.combine(groupId.utf8)
        hasher.combine(byte: UInt8(ascii: ":"))
        return hasher
    }

    /// `unleashNormalizedValue(id:groupId:)` continuing from `unleashPrefix(groupId:)`.
    @inline(__always)
    package static func unleashNormalizedValue(id: String, prefix: MurmurHash3, normalizer: UInt32 = 100) -> Int {
        var hasher = prefix
        hasher.combine(id.utf8)
        return Int(hasher.finalize() % max(normalizer, 1)) + 1
    }

    /// GrowthBook's `hash(seed, value, version)`: a number in `[0, 1)`, or `nil` for an unknown
    /// version.
    ///
    /// Version 1 is `fnv1a32(value + seed) % 1000 / 1000`; version 2 is
    /// `fnv1a32(String(fnv1a32(seed + value))) % 10000 / 10000`, over UTF-16 code units.
    public static func growthBookHash(seed: String, value: String, version: Int) -> Double? {
        switch version {
        case 1:
            return Double(FNV1a.hash32(utf16: value, seed) % 1000) / 1000
        case 2:
            let inner = FNV1a.hash32(utf16: seed, value)
            return Double(FNV1a.hash32(utf16: String(inner)) % 10000) / 10000
        default:
            return nil
        }
    }
}
