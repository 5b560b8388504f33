import CourierCore
import CourierTesting
import Pagination
import Testing

@Suite(.timeLimit(.minutes(1)))
struct PaginatorTests {
    @Test func pagingBothWaysWhileRowsAreInsertedAtBothEndsHasNoDuplicatesOrHoles() async throws {
        let harness = try PaginationHarness()
        defer { harness.stop() }
        try harness.insert(100..<200)
        let paginator = Paginator(source: harness.source, id: { $0 }, pageSize: 20, windowLimit: 1_000)
        try await paginator.loadLatest()
        #expect(await paginator.items == (180..<200).map(PaginationHarness.id))
        var newest = 300
        var oldest = 99
        while await paginator.hasMoreBefore {
            try harness.insert([oldest, newest])  // one row at each end during paging
            oldest -= 1
            newest += 1
            try await paginator.loadBefore()
        }
        while try await paginator.loadAfter(), await paginator.hasMoreAfter {}
        let expected = ((oldest + 1)..<200).map(PaginationHarness.id) + (300..<newest).map(PaginationHarness.id)
        let items = await paginator.items
        #expect(Set(items).count == items.count)
        #expect(items == expected)
    }

    @Test func aRowNearAnEdgePrefetchesAndARowInTheMiddleDoesNot() async throws {
        let harness = try PaginationHarness()
        defer { harness.stop() }
        try harness.insert(0..<100)
        let paginator = Paginator(source: harness.source, id: { $0 }, pageSize: 30, prefetchDistance: 5)
        try await paginator.loadLatest()
        #expect(await paginator.loadCount == 1)
        try await paginator.rowAppeared(at: 15)
        #expect(await paginator.loadCount == 1)
        try await paginator.rowAppeared(at: 5)
        #expect(await paginator.loadCount == 2)
        #expect(await paginator.items.count == 60)
    }

    @Test func aSecondLoadInTheSameDirectionRunsNoneWhileTheFirstIsInFlight() async throws {
        let harness = try PaginationHarness()
        defer { harness.stop() }
        try harness.insert(0..<100)
        let gated = GatedSource(harness.source)
        let paginator = Paginator(source: gated, id: { $0 }, pageSize: 10)
        try await paginator.loadLatest()
        gated.hold()
        let first = Task { try await paginator.loadBefore() }
        #expect(await poll { gated.started >= 2 })
        #expect(try await paginator.loadBefore() == false)
        #expect(try await paginator.rowAppeared(at: 0) == ())
        #expect(gated.started == 2)
        gated.open()
        #expect(try await first.value == true)
        #expect(await paginator.items == (80..<100).map(PaginationHarness.id))
    }

    @Test func anExpiredCursorStartsAgainFromTheLatestRowsWithAReason() async throws {
        let harness = try PaginationHarness(cursorAge: .seconds(60))
        defer { harness.stop() }
        try harness.insert(0..<50)
        let paginator = Paginator(source: harness.source, id: { $0 }, pageSize: 10)
        try await paginator.loadLatest()
        try await paginator.loadBefore()
        #expect(await paginator.items.count == 20)
        harness.clock.advance(by: .seconds(120))
        try harness.insert([60])
        try await paginator.loadBefore()
        #expect(await paginator.resets == [.cursorExpired])
        #expect(await paginator.items == ((41..<50).map(PaginationHarness.id) + [PaginationHarness.id(60)]))
    }

    @Test func aTamperedCursorIsRefusedByTheServer() async throws {
        let harness = try PaginationHarness()
        defer { harness.stop() }
        try harness.insert(0..<30)
        let page = try await harness.source.load(.latest, limit: 10)
        let cursor = try #require(page.edges.first?.cursor)
        // A character in the middle: the last one of base64 may carry padding bits that any
        // neighbour decodes to the same bytes, which left the cursor untouched now and then.
        var characters = Array(cursor)
        let middle = characters.count / 2
        characters[middle] = characters[middle] == "A" ? "B" : "A"
        let forged = String(characters)
        await #expect(throws: RecordPageSource.Failure.self) {
            _ = try await harness.source.load(.before(forged), limit: 10)
        }
        do {
            _ = try await harness.source.load(.before(forged), limit: 10)
        } catch let failure as RecordPageSource.Failure {
            #expect(failure.status == 400 && failure.code == "invalid_cursor")
        }
    }

    @Test func aJumpDeepIntoHistoryPagesBothWaysInABoundedWindow() async throws {
        let harness = try PaginationHarness()
        defer { harness.stop() }
        try harness.insert(0..<500)
        let paginator = Paginator(source: harness.source, id: { $0 }, pageSize: 20, windowLimit: 60)
        try await paginator.jump(to: PaginationHarness.id(150))
        #expect(await paginator.items == (140..<160).map(PaginationHarness.id))
        #expect(await paginator.hasMoreBefore)
        #expect(await paginator.hasMoreAfter)
        for _ in 0..<3 { try await paginator.loadAfter() }
        #expect(await paginator.items == (160..<220).map(PaginationHarness.id))
        #expect(await paginator.hasMoreBefore)
        for _ in 0..<2 { try await paginator.loadBefore() }
        #expect(await paginator.items == (120..<180).map(PaginationHarness.id))
    }
}
