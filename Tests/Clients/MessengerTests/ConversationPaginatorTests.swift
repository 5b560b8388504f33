import CourierCore
import Messenger
import Pagination
import Testing

@Suite(.timeLimit(.minutes(1))) struct ConversationPaginatorTests {
    typealias F = MessageStoreFixtures

    /// A store holding `count` messages with seqs 1…count, and `pending` of Alice's unsent ones.
    static func filled(_ backend: String = "memory", count: Int64, pending: Int = 0) throws -> ConversationStore {
        let store = try F.store(backend)
        try store.transaction { db in
            for seq in 1...count { try MessageStore.insertIncoming(F.incoming("m\(seq)", seq: seq), in: db) }
            for index in 0..<pending { try MessageStore.insertOutgoing(F.outgoing("p\(index)"), in: db) }
        }
        return store
    }

    @Test(arguments: ["memory", "file"]) func pagesBackThroughHistoryAndForwardForCatchUp(backend: String) throws {
        let store = try Self.filled(backend, count: 25, pending: 2)
        let latest = try store.page(conversationId: "c1", .latest, limit: 10)
        #expect(latest.edges.map(\.item.clientId) == (18...25).map { "m\($0)" } + ["p0", "p1"])
        #expect(latest.hasMoreBefore && !latest.hasMoreAfter)
        let older = try store.page(conversationId: "c1", .before(try #require(latest.edges.first).cursor), limit: 10)
        #expect(older.edges.map(\.item.serverSeq) == (8...17).map { Int64($0) })
        let oldest = try store.page(conversationId: "c1", .before(try #require(older.edges.first).cursor), limit: 10)
        #expect(oldest.edges.map(\.item.serverSeq) == (1...7).map { Int64($0) })
        #expect(!oldest.hasMoreBefore && oldest.hasMoreAfter)

        // Catch-up from the last row seen: new messages and the acked pending one, in order.
        let seen = try #require(older.edges.last).cursor
        try store.insertIncoming(F.incoming("m26", seq: 26))
        try store.markSent(clientId: "p0", serverSeq: 27)
        var caughtUp: [String] = []
        var cursor = seen
        while true {
            let page = try store.page(conversationId: "c1", .after(cursor), limit: 4)
            caughtUp += page.edges.map(\.item.clientId)
            guard page.hasMoreAfter, let last = page.edges.last else { break }
            cursor = last.cursor
        }
        #expect(caughtUp == (18...26).map { "m\($0)" } + ["p0", "p1"])
    }

    @Test func aJumpLoadsRowsAroundAMessage() throws {
        let store = try Self.filled(count: 40)
        let page = try store.page(conversationId: "c1", .around("bob/m20"), limit: 10)
        #expect(page.edges.map(\.item.serverSeq) == (15...24).map { Int64($0) })
        #expect(page.hasMoreBefore && page.hasMoreAfter)
        let missing = #expect(throws: ConversationStoreError.self) {
            try store.page(conversationId: "c1", .around("bob/nope"), limit: 10)
        }
        #expect(missing?.code == .notFound)
    }

    @Test(arguments: ["", "garbage", "m1.0.0.5", "m1.0.2.5.9", "m1.0.0.-1.9", "m1.x.0.1.1", "m2.0.0.1.1"])
    func aCursorThatDoesNotDecodeIsRefused(cursor: String) throws {
        let store = try Self.filled(count: 3)
        let error = #expect(throws: ConversationStoreError.self) {
            try store.page(conversationId: "c1", .before(cursor), limit: 10)
        }
        #expect(error?.code == .invalidCursor)
    }

    @Test func aCursorFromBeforeTheHistoryWasDeletedIsExpired() throws {
        let store = try Self.filled(count: 30)
        let cursor = try #require(try store.page(conversationId: "c1", .latest, limit: 10).edges.first).cursor
        try store.deleteHistory(conversationId: "c1")
        let error = #expect(throws: ConversationStoreError.self) {
            try store.page(conversationId: "c1", .before(cursor), limit: 10)
        }
        #expect(error?.code == .expiredCursor)
    }

    @Test func thePaginatorPrefetchesWhenARowNearTheEdgeAppears() async throws {
        let store = try Self.filled(count: 100)
        let paginator = Paginator(
            source: store.pageSource(conversationId: "c1"), id: \.id, pageSize: 20, prefetchDistance: 6)
        try await paginator.loadLatest()
        #expect(await paginator.items.map(\.serverSeq) == (81...100).map { Int64($0) })
        // Rows far from the top appear: nothing is loaded.
        for index in stride(from: 19, through: 7, by: -1) { try await paginator.rowAppeared(at: index) }
        #expect(await paginator.loadCount == 1)
        // The row 6 from the top appears: the previous page is fetched before the user gets there.
        try await paginator.rowAppeared(at: 6)
        #expect(await paginator.loadCount == 2)
        #expect(await paginator.items.map(\.serverSeq) == (61...100).map { Int64($0) })
        #expect(await paginator.hasMoreBefore)
    }

    @Test func afterAJumpThePaginatorCatchesUpWhenARowNearTheBottomAppears() async throws {
        let store = try Self.filled(count: 100)
        let paginator = Paginator(
            source: store.pageSource(conversationId: "c1"), id: \.id, pageSize: 20, prefetchDistance: 5)
        try await paginator.jump(to: "bob/m30")
        #expect(await paginator.items.map(\.serverSeq) == (20...39).map { Int64($0) })
        try await paginator.rowAppeared(at: 10)
        #expect(await paginator.loadCount == 1)
        try await paginator.rowAppeared(at: 14)
        #expect(await paginator.loadCount == 2)
        #expect(await paginator.items.map(\.serverSeq) == (20...59).map { Int64($0) })
        #expect(await paginator.hasMoreAfter)
    }

    @Test func thePaginatorStartsFromTheTopWhenItsCursorExpires() async throws {
        let store = try Self.filled(count: 50)
        let paginator = Paginator(source: store.pageSource(conversationId: "c1"), id: \.id, pageSize: 10)
        try await paginator.loadLatest()
        try store.deleteHistory(conversationId: "c1")
        for seq in Int64(60)...64 { try store.insertIncoming(F.incoming("n\(seq)", seq: seq)) }
        try await paginator.loadBefore()
        #expect(await paginator.resets == [.cursorExpired])
        #expect(await paginator.items.map(\.clientId) == (60...64).map { "n\($0)" })
    }

    @Test func theConversationListShowsLastMessageAndUnreadCount() throws {
        let store = try F.store("memory")
        for seq in Int64(1)...3 { try store.insertIncoming(F.incoming("a\(seq)", seq: seq, in: "chat-a")) }
        try store.insertIncoming(F.incoming("b1", seq: 1, in: "chat-b"))
        try store.insertOutgoing(F.outgoing("b-pending", in: "chat-b"))
        try store.markRead(conversationId: "chat-a", upToSeq: 2)
        let list = try store.conversations()
        #expect(list.map(\.conversationId) == ["chat-b", "chat-a"])
        #expect(list.map(\.lastMessage.clientId) == ["b-pending", "a3"])
        #expect(list.map(\.unreadCount) == [1, 1])
    }
}
