import CourierCore
import Pagination

/// The conversation store on its own file (or on the file it shares with the Signal stores):
/// reads for the UI, and writes outside the decrypt path (sending, acks, receipts, reading).
///
/// ```swift
/// let store = try ConversationStore(path: container + "/messenger.sqlite")
/// try store.insertOutgoing(message)
/// let paginator = Paginator(source: store.pageSource(conversationId: id), id: \.id, pageSize: 50)
/// try await paginator.loadLatest()
/// ```
public final class ConversationStore: Sendable {
    /// The pool; the decrypt path may write through it with `MessageStore`'s functions inside
    /// its own transaction.
    public let database: DatabasePool

    /// Opens (creating if needed) the store at `path` (`":memory:"` for one that dies with the
    /// process) and migrates it.
    /// - Parameters:
    ///   - options: connection options (for example `maximumPageCount` to bound the file).
    /// - Throws: `ConversationStoreError` `storage` when the file cannot be opened or migrated.
    public init(path: String, options: Database.Options = .init()) throws(ConversationStoreError) {
        database = try ConversationStoreError.translating("opening the conversation store at \(path)") {
            let pool = try DatabasePool(path: path, options: options)
            try pool.write { db in try MessageStore.migrate(db) }
            return pool
        }
    }

    /// Runs `body` in one write transaction (several store calls committed together).
    /// - Throws: `ConversationStoreError`; nothing of `body` is written when it throws.
    public func transaction<T>(_ body: (Database) throws -> T) throws(ConversationStoreError) -> T {
        try ConversationStoreError.translating("a conversation store transaction") { try database.transaction(body) }
    }

    /// Runs `body` on a reader (one snapshot).
    func read<T>(_ body: (Database) throws -> T) throws(ConversationStoreError) -> T {
        try ConversationStoreError.translating("reading the conversation store") { try database.read(body) }
    }

    /// See `MessageStore.insertIncoming`. - Returns: `false` for a duplicate.
    /// - Throws: `ConversationStoreError`.
    @discardableResult
    public func insertIncoming(_ message: Message) throws(ConversationStoreError) -> Bool {
        try transaction { db in try MessageStore.insertIncoming(message, in: db) }
    }

    /// See `MessageStore.insertOutgoing`. - Returns: `false` for a duplicate.
    /// - Throws: `ConversationStoreError`.
    @discardableResult
    public func insertOutgoing(_ message: Message) throws(ConversationStoreError) -> Bool {
        try transaction { db in try MessageStore.insertOutgoing(message, in: db) }
    }

    /// See `MessageStore.markSent`. - Returns: whether the message moved.
    /// - Throws: `ConversationStoreError`.
    @discardableResult
    public func markSent(clientId: String, serverSeq: Int64) throws(ConversationStoreError) -> Bool {
        try transaction { db in try MessageStore.markSent(clientId: clientId, serverSeq: serverSeq, in: db) }
    }

    /// See `MessageStore.markFailed`. - Returns: whether the message moved.
    /// - Throws: `ConversationStoreError`.
    @discardableResult
    public func markFailed(clientId: String) throws(ConversationStoreError) -> Bool {
        try transaction { db in try MessageStore.markFailed(clientId: clientId, in: db) }
    }

    /// See `MessageStore.retry`. - Returns: whether the message moved.
    /// - Throws: `ConversationStoreError`.
    @discardableResult
    public func retry(clientId: String) throws(ConversationStoreError) -> Bool {
        try transaction { db in try MessageStore.retry(clientId: clientId, in: db) }
    }

    /// See `MessageStore.markRead`. - Returns: how many messages became read.
    /// - Throws: `ConversationStoreError`.
    @discardableResult
    public func markRead(conversationId: String, upToSeq: Int64) throws(ConversationStoreError) -> Int {
        try transaction { db in try MessageStore.markRead(conversationId: conversationId, upToSeq: upToSeq, in: db) }
    }

    /// See `MessageStore.applyReceipt`. - Returns: how many messages moved.
    /// - Throws: `ConversationStoreError`.
    @discardableResult
    public func applyReceipt(kind: ReceiptKind, conversationId: String, reader: MessageSender, upToSeq: Int64)
        throws(ConversationStoreError) -> Int
    {
        try transaction { db in
            try MessageStore.applyReceipt(
                kind: kind, conversationId: conversationId, reader: reader, upToSeq: upToSeq, in: db)
        }
    }

    /// See `MessageStore.pendingReceipts`.
    /// - Throws: `ConversationStoreError`.
    public func pendingReceipts(sendReadReceipts: Bool) throws(ConversationStoreError) -> [PendingReceipt] {
        try read { db in try MessageStore.pendingReceipts(sendReadReceipts: sendReadReceipts, in: db) }
    }

    /// See `MessageStore.markReceiptsSent`.
    /// - Throws: `ConversationStoreError`.
    public func markReceiptsSent(_ receipts: [PendingReceipt]) throws(ConversationStoreError) {
        try transaction { db in try MessageStore.markReceiptsSent(receipts, in: db) }
    }

    /// See `MessageStore.recordControlSequence`.
    /// - Throws: `ConversationStoreError`.
    public func recordControlSequence(conversationId: String, serverSeq: Int64) throws(ConversationStoreError) {
        try transaction { db in
            try MessageStore.recordControlSequence(conversationId: conversationId, serverSeq: serverSeq, in: db)
        }
    }

    /// See `MessageStore.deleteHistory`.
    /// - Throws: `ConversationStoreError`.
    public func deleteHistory(conversationId: String) throws(ConversationStoreError) {
        try transaction { db in try MessageStore.deleteHistory(conversationId: conversationId, in: db) }
    }

    /// A conversation's messages in display order (`serverSeq`, then pending rows).
    /// - Throws: `ConversationStoreError`.
    public func messages(conversationId: String) throws(ConversationStoreError) -> [Message] {
        try read { db in try MessageStore.messages(conversationId: conversationId, in: db) }
    }

    /// One message.
    /// - Throws: `ConversationStoreError`.
    public func message(conversationId: String, senderAccount: String, clientId: String)
        throws(ConversationStoreError) -> Message?
    {
        try read { db in
            try MessageStore.message(
                conversationId: conversationId, senderAccount: senderAccount, clientId: clientId, in: db)
        }
    }

    /// The missing `serverSeq` ranges of a conversation; see `MessageStore.gaps`.
    /// - Throws: `ConversationStoreError`.
    public func gaps(conversationId: String) throws(ConversationStoreError) -> [ClosedRange<Int64>] {
        try read { db in try MessageStore.gaps(conversationId: conversationId, in: db) }
    }

    /// The conversation list; see `MessageStore.conversations`.
    /// - Throws: `ConversationStoreError`.
    public func conversations() throws(ConversationStoreError) -> [ConversationSummary] {
        try read { db in try MessageStore.conversations(in: db) }
    }

    /// One page of a conversation; see `MessageStore.page`.
    /// - Throws: `ConversationStoreError`.
    public func page(conversationId: String, _ load: PageLoad, limit: Int) throws(ConversationStoreError)
        -> Page<Message>
    {
        try read { db in try MessageStore.page(conversationId: conversationId, load, limit: limit, in: db) }
    }

    /// A page source for Pagination's `Paginator` over one conversation.
    public func pageSource(conversationId: String) -> ConversationPageSource {
        ConversationPageSource(store: self, conversationId: conversationId)
    }
}
