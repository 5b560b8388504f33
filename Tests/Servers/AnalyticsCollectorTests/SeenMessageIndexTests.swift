import Testing

@testable import AnalyticsCollector

/// The in-memory dedupe index on its own: keys that share a hash, partitions dropped whole.
struct SeenMessageIndexTests {
    @Test func rowsUnderOneHashAreAllOfferedForConfirmation() {
        // A 64-bit hash collision cannot be produced on demand, so two rows are filed under one
        // key by hand: the store confirms each against the event row, and neither may be lost.
        var index = SeenMessageIndex(window: 80_000)
        index.insert(key: 7, id: 1, receivedAt: 1_000)
        index.insert(key: 7, id: 2, receivedAt: 1_500)
        index.insert(key: 7, id: 3, receivedAt: 25_000)
        var offered: [Int64] = []
        let found = index.contains(7) { id in
            offered.append(id)
            return false
        }
        #expect(!found)
        #expect(offered.sorted() == [1, 2, 3])
        #expect(index.contains(7) { $0 == 2 })
        #expect(!index.contains(8) { _ in true })
        #expect(index.count == 3)
    }

    @Test func forgettingDropsOnlyPartitionsThatEndedBeforeTheCutoff() {
        // Partitions of 10 s: [0, 10 s), [10 s, 20 s), [20 s, 30 s).
        var index = SeenMessageIndex(window: 80_000)
        index.insert(key: 1, id: 1, receivedAt: 9_999)
        index.insert(key: 2, id: 2, receivedAt: 10_000)
        index.insert(key: 3, id: 3, receivedAt: 29_000)
        #expect(index.forget(before: 10_000) == 1)
        #expect(index.forget(before: 19_999) == 0)
        #expect(index.contains(2) { _ in true })
        #expect(index.forget(before: 20_000) == 1)
        #expect(index.count == 1)
        #expect(index.partition(of: -1) == -10_000)
    }

    @Test func theTableKeepsEveryRowAcrossGrowthAndCollidingSlots() {
        var table = RowIDTable()
        // Keys that share their low bits land in one run of slots; key 0 is filed too.
        let keys: [UInt64] = (0..<5_000).map { UInt64($0 % 1_000) << 40 | UInt64($0 % 7) }
        for (i, key) in keys.enumerated() { table.insert(key: key, id: Int64(i)) }
        table.insert(key: 0, id: -1)
        #expect(table.count == 5_001)
        for (i, key) in keys.enumerated() {
            #expect(table.contains(key) { $0 == Int64(i) })
        }
        #expect(table.contains(0) { $0 == -1 })
        var offered = 0
        _ = table.contains(keys[3]) { _ in
            offered += 1
            return false
        }
        #expect(offered == keys.filter { $0 == keys[3] }.count)
        #expect(!table.contains(UInt64.max) { _ in true })
    }
}
