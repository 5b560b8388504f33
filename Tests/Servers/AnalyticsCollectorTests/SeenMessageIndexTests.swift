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
}
