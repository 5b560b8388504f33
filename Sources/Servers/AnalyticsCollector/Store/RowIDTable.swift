/// Row ids filed under 64-bit keys that are already hashes (`SeenMessageIndex.key`): a multimap
/// with open addressing and linear probing over one flat array of slots.
///
/// The key's own low bits pick the slot, so nothing is hashed again (a `Dictionary` runs SipHash
/// over the key on every lookup, and the dedupe index looks a message up in each of its
/// partitions). A slot holds its key beside its row id, so filing or finding one costs one cache
/// miss, not two. A key filed twice takes two slots, so rows that share a hash need no list of
/// their own. The table grows to twice its size past a load of 0.7: 23 to 46 bytes per entry.
struct RowIDTable {
    private struct Slot {
        /// 0 marks an empty slot (`stored`: a key of 0 is filed as 1; matches are confirmed
        /// against the row, so merging two keys loses nothing).
        var key: UInt64
        var id: Int64
    }

    private var slots: [Slot]
    /// Entries held.
    private(set) var count = 0

    /// An empty table with room for `capacity` entries before it grows.
    init(capacity: Int = 8) {
        var size = 16
        while size * 7 / 10 < capacity { size *= 2 }
        slots = Array(repeating: Slot(key: 0, id: 0), count: size)
    }

    /// Files row `id` under `key` (beside any row already there).
    mutating func insert(key: UInt64, id: Int64) {
        if (count + 1) * 10 > slots.count * 7 { grow() }
        Self.place(Slot(key: Self.stored(key), id: id), in: &slots)
        count += 1
    }

    /// Whether `body` returns `true` for a row id filed under `key`; it is called for each such
    /// row until it does.
    func contains(_ key: UInt64, where body: (Int64) throws -> Bool) rethrows -> Bool {
        let wanted = Self.stored(key)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: wanted) & mask
        while true {
            let slot = slots[index]
            if slot.key == 0 { return false }
            if slot.key == wanted, try body(slot.id) { return true }
            index = (index + 1) & mask
        }
    }

    /// The key as a slot holds it: 0 marks an empty slot, so a key of 0 is filed as 1.
    private static func stored(_ key: UInt64) -> UInt64 { key == 0 ? 1 : key }

    private mutating func grow() {
        var larger = Array(repeating: Slot(key: 0, id: 0), count: slots.count * 2)
        for slot in slots where slot.key != 0 { Self.place(slot, in: &larger) }
        slots = larger
    }

    private static func place(_ slot: Slot, in slots: inout [Slot]) {
        slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: slot.key) & mask
            while slots[index].key != 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
