import CourierCore
import Pagination

extension MessengerClient {
    /// The conversations holding messages, most recently written first, each with its last
    /// message and its count of unread incoming messages.
    /// - Throws: `ConversationStoreError`.
    public func conversations() throws -> [ConversationSummary] {
        try storage.conversations.conversations()
    }

    /// The stored messages of a conversation in display order: by `serverSeq`, then the pending
    /// ones in the order they were written.
    /// - Throws: `ConversationStoreError`.
    public func messages(in conversation: String) throws -> [Message] {
        try storage.conversations.messages(conversationId: conversation)
    }

    /// A page source over one conversation, for Pagination's `Paginator` (or a list of the app's own).
    public nonisolated func pageSource(for conversation: String) -> ConversationPageSource {
        storage.conversations.pageSource(conversationId: conversation)
    }

    /// A prefetching paginator over one conversation: `loadLatest()`, then `rowAppeared(at:)` as
    /// rows show; it loads older or newer pages near either edge and keeps a bounded window.
    ///
    /// ```swift
    /// let paginator = client.paginator(for: conversation)
    /// try await paginator.loadLatest()
    /// let rows = await paginator.items
    /// ```
    public nonisolated func paginator(for conversation: String, pageSize: Int = 50)
        -> Paginator<ConversationPageSource>
    {
        Paginator(source: pageSource(for: conversation), id: \.id, pageSize: pageSize)
    }

    /// The missing `serverSeq` ranges of a conversation (see `MessageStore.gaps`).
    /// - Throws: `ConversationStoreError`.
    public func gaps(in conversation: String) throws -> [ClosedRange<Int64>] {
        try storage.conversations.gaps(conversationId: conversation)
    }

    /// The user saw `conversation` up to `upToSeq`: its incoming messages up to there become
    /// `read`, a read receipt is queued for each sender, and the pending receipts are sent
    /// (read ones only when `sendsReadReceipts` allows).
    /// - Returns: how many messages became read.
    /// - Throws: `ConversationStoreError`; `MessengerClientError` when sending the receipts failed
    ///   (they stay queued for the next `sendPendingReceipts()`).
    @discardableResult
    public func markRead(_ conversation: String, upToSeq: Int64) async throws -> Int {
        let changed = try storage.transaction { _, _, db in
            try MessageStore.markRead(conversationId: conversation, upToSeq: upToSeq, in: db)
        }
        try await sendPendingReceipts()
        return changed
    }

    /// Sends the queued receipts, one per conversation, sender and kind covering every message
    /// up to its seq ("delivered" for what arrived, "read" for what `markRead` marked, the latter
    /// only when `sendsReadReceipts` is on), and records each as sent.
    /// - Returns: the receipts sent.
    /// - Throws: `MessengerClientError`; those not sent stay queued.
    @discardableResult
    public func sendPendingReceipts() async throws -> [PendingReceipt] {
        let pending = try storage.conversations.pendingReceipts(sendReadReceipts: configuration.sendsReadReceipts)
        for receipt in pending {
            let content = MessageContent.receipt(
                receipt.kind, conversation: receipt.conversationId, upToSeq: receipt.upToSeq)
            try await sendControl(content, to: receipt.recipient, conversation: receipt.conversationId)
            try storage.transaction { _, _, db in try MessageStore.markReceiptsSent([receipt], in: db) }
        }
        return pending
    }

    /// Fetches what the server holds when `conversation` has a new hole in its `serverSeq`s (a
    /// message the socket skipped); the envelopes already processed come back as duplicates. A
    /// hole that a catch-up already looked for and could not fill (a seq used by a message sent
    /// only to other devices) does not start another one.
    /// - Parameter onEvent: called with each event as its envelope commits, so a failure later in
    ///   the catch-up (a page that does not arrive) loses none of the events before it.
    /// - Returns: what the catch-up produced; empty when there is no new gap.
    @discardableResult
    func catchUpIfGaps(in conversation: String, onEvent: @Sendable (IncomingEvent) -> Void = { _ in }) async throws
        -> [IncomingEvent]
    {
        let holes = try gaps(in: conversation)
        guard !holes.isEmpty, holes != gapsCaughtUp[conversation] else { return [] }
        try await retryPendingSends()
        let events = try await catchUp(limit: .max, onEvent: onEvent)
        gapsCaughtUp[conversation] = try gaps(in: conversation)
        return events
    }
}
