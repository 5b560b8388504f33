/// A checksum of a set of records by `(collection, id, version)`, independent of order: a client
/// that resynced from a snapshot compares its own with the snapshot's to prove it holds the same
/// records at the same versions.
public enum RecordSetChecksum {
    /// The checksum of the live (non-deleted) records among `records`, as 16 hex digits.
    public static func of(_ records: some Sequence<SyncRecord>) -> String {
        of(keys: records.lazy.filter { !$0.deleted }.map { ($0.collection, $0.id, $0.version) })
    }

    /// The checksum of `(collection, id, version)` triples: the sum of each triple's FNV-1a 64
    /// hash, so order does not matter.
    public static func of(keys: some Sequence<(String, String, Int64)>) -> String {
        var sum: UInt64 = 0
        for (collection, id, version) in keys {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in collection.utf8 + [0] + id.utf8 + [0] + String(version).utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            sum = sum &+ hash
        }
        let hex = String(sum, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
