import Pagination

/// A conversation as a `PageSource`, so Pagination's `Paginator` pages it (prefetching near
/// either edge, both directions, a bounded window). A cursor the store refuses, invalid or
/// expired, is reported as `cursorExpired`: the paginator starts again from the latest rows.
public struct ConversationPageSource: PageSource {
    /// The store.
    public let store: ConversationStore
    /// The conversation.
    public let conversationId: String

    /// Loads one page from the store.
    /// - Throws: `PageSourceError.cursorExpired` for a refused cursor; `ConversationStoreError`.
    public func load(_ load: PageLoad, limit: Int) async throws -> Page<Message> {
        let page: Page<Message>
        do {
            page = try store.page(conversationId: conversationId, load, limit: limit)
        } catch {
            let refused = error.code == .invalidCursor || error.code == .expiredCursor
            throw refused ? PageSourceError.cursorExpired : error
        }
        return page
    }
}
