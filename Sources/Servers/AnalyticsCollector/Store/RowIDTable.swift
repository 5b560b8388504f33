/// Row ids filed under 64-bit keys that are already hashes (`SeenMessageIndex.key`): a multimap
/// with open addressing and linear probing over two flat arrays.
///
/// The key's own low bits pick the slot, so nothing is hashed again (a `Dictionary` runs SipHash
/// over the key on every lookup, and the dedupe index looks a message up in each of its
/// partitions). A key filed twice takes two slots, so rows that share a hash need no list of
/// their own. The table grows to twice its size past a load of 0.7: 23 to 46 bytes per entry.
struct RowIDTable {
    /// Key bits per slot; 0 marks an empty slot (a key of 0 is filed as 1: matches are
    /// confirmed against the row, so merging two keys loses nothing).
    private var keys: [UInt64]
    private var ids: [Int64]
    /// Entries held.
    private(set) var count = 0

    /// An empty table with room for `capacity` entries before it grows.
    init(capacity: Int = 8) {
        var slots = 16
        while slots * 7 / 10 < capacity { slots *= 2 }
        keys = Array(repeating: 0, count: slots)
        ids = Array(repeating: 0, count: slots)
    }

    /// Files row `id` under `key` (beside any row already there).
    mutating func insert(key: UInt64, id: Int64) {
        if (count + 1) * 10 > keys.count * 7 { grow() }
        Self.place(key == 0 ? 1 : key, id, keys: &keys, ids: &ids)
        count += 1
    }

    /// Whether `body` returns `true` for a row id filed under `key`; it is called for each such
    /// row until it does.
    func contains(_ key: UInt64, where body: (Int64) throws -> Bool) rethrows -> Bool {
        let wanted = key == 0 ? 1 : key
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: wanted) & mask
        while true {
            let found = keys[slot]
            if found == 0 { return false }
            if found == wanted, try body(ids[slot]) { return true }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        var newKeys = [UInt64](repeating: 0, count: keys.count * 2)
        var newIDs = [Int64](repeating: 0, count: keys.count * 2)
        for slot in keys.indices where keys[slot] != 0 {
            Self.place(keys[slot], ids[slot], keys: &newKeys, ids: &newIDs)
        }
        keys = newKeys
        ids = newIDs
    }

    private static func place(_ key: UInt64, _ id: Int64, keys: inout [UInt64], ids: inout [Int64]) {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: key) & mask
        while keys[slot] != 0 { slot = (slot + 1) & mask }
        keys[slot] = key
        ids[slot] = id
    }
}
