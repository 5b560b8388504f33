import Testing

@testable import CourierHTTP

@Suite struct SlotTableTests {
    final class Box {
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test func aValueIsFoundByItsIdUntilItIsRemoved() {
        var table = SlotTable<Box>()
        let first = table.insert(Box("first"))
        let second = table.insert(Box("second"))
        #expect(first != 0 && second != 0 && first != second)
        #expect(table[first]?.name == "first")
        #expect(table[second]?.name == "second")
        #expect(table.count == 2)
        #expect(table.remove(first)?.name == "first")
        #expect(table[first] == nil)
        #expect(table.remove(first) == nil)
        #expect(table.count == 1)
        #expect(table.entries.map(\.id) == [second])
    }

    @Test func anIdThatWasRemovedNeverFindsWhatLaterTakesItsSlot() {
        var table = SlotTable<Box>()
        let old = table.insert(Box("old"))
        table.remove(old)
        let new = table.insert(Box("new"))
        // The same slot, a later generation.
        #expect(new & 0xFFFF_FFFF == old & 0xFFFF_FFFF)
        #expect(new != old)
        #expect(table[old] == nil)
        #expect(table.remove(old) == nil)
        #expect(table[new]?.name == "new")
    }

    @Test func idsThatWereNeverGivenFindNothing() {
        var table = SlotTable<Box>()
        let id = table.insert(Box("one"))
        #expect(table[0] == nil)
        #expect(table[id + 1] == nil)
        #expect(table[id | 1 << 40] == nil)
        #expect(table[id | 1 << 63] == nil)
    }

    @Test func aTaggedTableGivesIdsWithTheTopBitAndFindsOnlyThose() {
        var table = SlotTable<Box>(tag: 1 << 63)
        let id = table.insert(Box("socket"))
        #expect(id & 1 << 63 != 0)
        #expect(table[id]?.name == "socket")
        #expect(table[id & ~(1 << 63)] == nil)
        // An untagged table's ids never have the top bit, so the two kinds never meet.
        var plain = SlotTable<Box>()
        #expect(plain.insert(Box("exchange")) & 1 << 63 == 0)
    }

    @Test func aValueMadeFromItsIdGetsTheIdItIsHeldByInAFreedSlotOrANewOne() {
        var table = SlotTable<Box>()
        let gone = table.insert(Box("gone"))
        table.remove(gone)
        // The freed slot, a later generation.
        let (reused, box) = table.insert { id in Box("made as \(id)") }
        #expect(box.name == "made as \(reused)")
        #expect(table[reused] === box)
        #expect(reused & 0xFFFF_FFFF == gone & 0xFFFF_FFFF && reused != gone)
        #expect(table[gone] == nil)
        // No slot free: a new one.
        let (fresh, made) = table.insert { id in Box("\(id)") }
        #expect(made.name == "\(fresh)")
        #expect(fresh & 0xFFFF_FFFF != reused & 0xFFFF_FFFF)
        #expect(table.count == 2)
    }

    @Test func aSlotWhoseGenerationsAreUsedUpIsNeverGivenOutAgain() {
        var table = SlotTable<Box>(tag: 0, retiringSlotsAfter: 3)
        var ids: [UInt64] = []
        for use in 1...3 {
            let id = table.insert(Box("use \(use)"))
            ids.append(id)
            table.remove(id)
        }
        // One slot, three generations; then a new slot, and no old id finds its value.
        #expect(Set(ids.map { $0 & 0xFFFF_FFFF }).count == 1)
        let next = table.insert(Box("next"))
        #expect(next & 0xFFFF_FFFF != ids[0] & 0xFFFF_FFFF)
        #expect(ids.allSatisfy { table[$0] == nil })
        #expect(table[next]?.name == "next")
        // An id naming the retired slot at generation 0 finds nothing either.
        #expect(table[ids[0] & 0xFFFF_FFFF] == nil)
        // The generation never reaches the top bit, which is the tag's.
        #expect(UInt64(SlotTable<Box>.lastGeneration) << 32 & 1 << 63 == 0)
    }

    @Test func forEachVisitsEveryValueHeld() {
        var table = SlotTable<Box>()
        let ids = ["a", "b", "c"].map { table.insert(Box($0)) }
        table.remove(ids[1])
        var seen: [String] = []
        table.forEach { seen.append($0.name) }
        #expect(seen == ["a", "c"])
    }
}
