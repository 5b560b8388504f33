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
        #expect(table.values.map(\.name) == ["second"])
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

    @Test func aValueMadeFromItsIdGetsTheIdItIsHeldBy() {
        var table = SlotTable<Box>()
        table.remove(table.insert(Box("gone")))
        _ = table.insert(Box("kept"))
        let (id, box) = table.insert { id in Box("made as \(id)") }
        #expect(box.name == "made as \(id)")
        #expect(table[id] === box)
        let (reused, _) = table.insert { id in Box("\(id)") }
        #expect(table[reused] != nil && reused != id)
    }

    @Test func theGenerationAfterTheLastIsTheFirstAgain() {
        #expect(SlotTable<Box>.generation(after: 1) == 2)
        #expect(SlotTable<Box>.generation(after: SlotTable<Box>.lastGeneration) == 1)
        // The generation never reaches the top bit, which is the tag's.
        #expect(UInt64(SlotTable<Box>.lastGeneration) << 32 & 1 << 63 == 0)
    }
}
