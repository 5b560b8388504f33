/// Values by an id the table gives out, for the loop thread's record of what lws's per-session
/// data names (an exchange, a WebSocket): an array of slots in place of a dictionary keyed by a
/// counter, so a look-up is an index and a comparison rather than a hash. The loop looks an
/// exchange up about six times a request.
///
/// An id holds a slot's index (its low 32 bits), the slot's generation (the next 31 bits, from 1)
/// and the table's `tag` (bits of the top one, which the generation never reaches). Removing a
/// value moves its slot to the next generation, so an id that was removed never finds what later
/// takes its slot. Ids are never 0. Not thread-safe: one thread owns a table.
struct SlotTable<Value> {
    private struct Slot {
        var generation: UInt32
        var value: Value?
    }

    /// The highest generation; the one after it is 1 again.
    static var lastGeneration: UInt32 { UInt32(Int32.max) }

    private var slots: [Slot] = []
    /// Indices of empty slots, the most recently emptied last.
    private var free: [UInt32] = []
    private let tag: UInt64
    /// The values held.
    private(set) var count = 0

    /// An empty table whose ids all carry `tag` (0, or bits of the top one, `1 << 63`).
    init(tag: UInt64 = 0) {
        precondition(tag & ~(1 << 63) == 0, "a slot table's tag is the top bit or nothing")
        self.tag = tag
    }

    /// Holds `value` and gives its id.
    mutating func insert(_ value: Value) -> UInt64 {
        count += 1
        if let index = free.popLast() {
            slots[Int(index)].value = value
            return id(index: index, generation: slots[Int(index)].generation)
        }
        let index = UInt32(slots.count)
        slots.append(Slot(generation: 1, value: value))
        return id(index: index, generation: 1)
    }

    /// Holds the value `make` makes from the id it is given (for a value that must know its own
    /// id), and gives both.
    mutating func insert(making make: (UInt64) -> Value) -> (id: UInt64, value: Value) {
        let index = free.last ?? UInt32(slots.count)
        let id = id(index: index, generation: index < slots.count ? slots[Int(index)].generation : 1)
        let value = make(id)
        let given = insert(value)
        assert(given == id, "the slot table gave another id than the one it promised")
        return (id, value)
    }

    /// The value `id` names, or `nil` when it was removed (or was never given out here).
    subscript(id: UInt64) -> Value? {
        guard let index = index(of: id) else { return nil }
        return slots[index].value
    }

    /// Lets go of the value `id` names, and gives it back; `nil` when there is none.
    @discardableResult
    mutating func remove(_ id: UInt64) -> Value? {
        guard let index = index(of: id), let value = slots[index].value else { return nil }
        slots[index].value = nil
        slots[index].generation = Self.generation(after: slots[index].generation)
        free.append(UInt32(index))
        count -= 1
        return value
    }

    /// Every value held, with its id, in slot order.
    var entries: [(id: UInt64, value: Value)] {
        slots.indices.compactMap { index in
            slots[index].value.map { (id(index: UInt32(index), generation: slots[index].generation), $0) }
        }
    }

    /// Every value held, in slot order.
    var values: [Value] { slots.compactMap(\.value) }

    /// The generation a slot moves to when its value is removed.
    static func generation(after generation: UInt32) -> UInt32 {
        generation >= lastGeneration ? 1 : generation + 1
    }

    private func id(index: UInt32, generation: UInt32) -> UInt64 {
        tag | UInt64(generation) << 32 | UInt64(index)
    }

    /// The slot `id` names while its value is there: the tag and the generation must match.
    private func index(of id: UInt64) -> Int? {
        guard id & (1 << 63) == tag else { return nil }
        let index = Int(truncatingIfNeeded: id & 0xFFFF_FFFF)
        guard index < slots.count, slots[index].generation == UInt32(truncatingIfNeeded: (id >> 32) & 0x7FFF_FFFF)
        else { return nil }
        return index
    }
}
