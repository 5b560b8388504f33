/// Values by an id the table gives out, for the loop thread's record of what lws's per-session
/// data names (an exchange, a WebSocket): an array of slots in place of a dictionary keyed by a
/// counter, so a look-up is an index and a comparison rather than a hash. The loop looks an
/// exchange up about six times a request.
///
/// An id holds a slot's index (its low 32 bits), the slot's generation (the next 31 bits, from 1)
/// and the table's `tag` (bits of the top one, which the generation never reaches). Removing a
/// value moves its slot to the next generation, so an id that was removed never finds what later
/// takes its slot; a slot whose generations are used up (2³¹ values, hours of requests at the
/// loop's rate) is never given out again rather than starting over. Ids are never 0. Not
/// thread-safe: one thread owns a table.
struct SlotTable<Value> {
    private struct Slot {
        var generation: UInt32
        var value: Value?
    }

    /// The highest generation a slot reaches.
    static var lastGeneration: UInt32 { UInt32(Int32.max) }

    private var slots: [Slot] = []
    /// Indices of empty slots, the most recently emptied last.
    private var free: [UInt32] = []
    private let tag: UInt64
    /// The generation after which a slot is retired (`lastGeneration`; lower in tests).
    private let retiredAfter: UInt32
    /// The values held.
    private(set) var count = 0

    /// An empty table whose ids all carry `tag` (0, or bits of the top one, `1 << 63`).
    init(tag: UInt64 = 0) {
        self.init(tag: tag, retiringSlotsAfter: Self.lastGeneration)
    }

    /// A table whose slots are retired after generation `retiredAfter` (at most `lastGeneration`).
    init(tag: UInt64, retiringSlotsAfter retiredAfter: UInt32) {
        precondition(tag & ~(1 << 63) == 0, "a slot table's tag is the top bit or nothing")
        precondition((1...Self.lastGeneration).contains(retiredAfter), "a slot has generations 1 to lastGeneration")
        self.tag = tag
        self.retiredAfter = retiredAfter
    }

    /// Holds `value` and gives its id.
    mutating func insert(_ value: Value) -> UInt64 {
        insert(making: { _ in value }).id
    }

    /// Holds the value `make` makes from the id it is given (for a value that must know its own
    /// id), and gives both: the most recently emptied slot, or a new one.
    mutating func insert(making make: (UInt64) -> Value) -> (id: UInt64, value: Value) {
        let index = free.popLast() ?? UInt32(slots.count)
        if index == slots.count { slots.append(Slot(generation: 1, value: nil)) }
        let id = id(index: index, generation: slots[Int(index)].generation)
        let value = make(id)
        slots[Int(index)].value = value
        count += 1
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
        count -= 1
        // A slot whose generations are used up stays empty: starting over at 1 would let an id
        // from its first use find a later value.
        guard slots[index].generation < retiredAfter else {
            slots[index].generation = 0
            return value
        }
        slots[index].generation += 1
        free.append(UInt32(index))
        return value
    }

    /// Calls `body` with every value held, in slot order, without copying them out.
    func forEach(_ body: (Value) -> Void) {
        for slot in slots {
            if let value = slot.value { body(value) }
        }
    }

    /// Every value held, with its id, in slot order (a copy: the caller may remove as it goes).
    var entries: [(id: UInt64, value: Value)] {
        slots.indices.compactMap { index in
            slots[index].value.map { (id(index: UInt32(index), generation: slots[index].generation), $0) }
        }
    }

    private func id(index: UInt32, generation: UInt32) -> UInt64 {
        tag | UInt64(generation) << 32 | UInt64(index)
    }

    /// The slot `id` names while its value is there: the tag and the generation must match (a
    /// retired slot's generation, 0, matches no id).
    private func index(of id: UInt64) -> Int? {
        guard id & (1 << 63) == tag else { return nil }
        let index = Int(truncatingIfNeeded: id & 0xFFFF_FFFF)
        let generation = UInt32(truncatingIfNeeded: (id >> 32) & 0x7FFF_FFFF)
        guard index < slots.count, generation != 0, slots[index].generation == generation else { return nil }
        return index
    }
}
