import CourierCore
import Testing

/// Random UUIDs: the SDK's `messageId`s and every `Identifier.uuid()`.
struct IdentifierTests {
    @Test func generatedIdsAreUniqueLowercaseVersion4UUIDs() {
        var generator = RandomUUIDGenerator()
        let ids = (0..<10_000).map { _ in generator.next() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(100) { expectVersion4(id) }
    }

    @Test func identifiersFromManyTasksAtOnceNeverRepeat() async {
        // The process shares one generator: tasks on every thread draw from it at once, across
        // several refills of its 256-id buffer.
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<1_000).map { _ in Identifier.uuid() } }
            }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(ids.count == 8_000)
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(100) { expectVersion4(id) }
    }

    @Test func randomnessBufferedBeforeAForkIsNotUsedAfterIt() {
        var parent = RandomUUIDGenerator()
        _ = parent.next()
        // A copy holds the same buffered randomness, as a forked child's memory does: without
        // the fork's handler both sides hand out the same next id.
        var unforked = parent
        #expect(unforked.next() == parent.next())
        var child = parent
        ForkGeneration.childAfterFork()
        let (inChild, inParent) = (child.next(), parent.next())
        #expect(inChild != inParent)
        expectVersion4(inChild)
    }

    private func expectVersion4(_ id: String) {
        let parts = id.split(separator: "-")
        #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
        #expect(parts[2].first == "4")
        #expect(["8", "9", "a", "b"].contains(parts[3].first))
        #expect(id == id.lowercased())
        #expect(id.allSatisfy { $0.isHexDigit || $0 == "-" })
    }
}
