import CourierCore
import Pagination

extension MessageStore {
    /// One page of a conversation in display order, each row with a keyset cursor: `.latest`
    /// for the newest rows, `.before(cursor)` for history, `.after(cursor)` for catch-up,
    /// `.around(message.id)` for a jump. Rows written between two loads neither repeat nor go
    /// missing, since a cursor is a position, not an offset.
    /// - Parameters:
    ///   - limit: rows at most (1…1,000).
    /// - Throws: `ConversationStoreError` `invalidCursor` for a cursor that does not decode,
    ///   `expiredCursor` for one issued before the history was deleted, `notFound` for an
    ///   `around` id the conversation does not hold, `storage`.
    public static func page(
        conversationId: String, _ load: PageLoad, limit: Int, in db: Database
    ) throws(ConversationStoreError) -> Page<Message> {
        let limit = min(max(limit, 1), 1_000)
        let epoch = try ConversationStoreError.translating("reading a page") { try Self.epoch(conversationId, in: db) }
        var rows: [(MessagePosition, Message?)]
        var hasMoreBefore = false
        var hasMoreAfter = false
        switch load {
        case .latest:
            (rows, hasMoreBefore) = try oneSide(conversationId, from: nil, older: true, limit: limit, db)
        case .before(let cursor):
            let position = try MessageCursor.decode(cursor, epoch: epoch)
            (rows, hasMoreBefore) = try oneSide(conversationId, from: position, older: true, limit: limit, db)
            hasMoreAfter = try exists(conversationId, beyond: rows.last?.0 ?? position, older: false, db)
        case .after(let cursor):
            let position = try MessageCursor.decode(cursor, epoch: epoch)
            (rows, hasMoreAfter) = try oneSide(conversationId, from: position, older: false, limit: limit, db)
            hasMoreBefore = try exists(conversationId, beyond: rows.first?.0 ?? position, older: true, db)
        case .around(let id):
            let position = try position(of: id, conversationId: conversationId, db)
            rows = try fetch(conversationId, from: position, older: true, inclusive: true, limit: limit / 2 + 1, db)
            rows += try fetch(
                conversationId, from: position, older: false, inclusive: false, limit: limit - rows.count, db)
            if let first = rows.first?.0, let last = rows.last?.0 {
                hasMoreBefore = try exists(conversationId, beyond: first, older: true, db)
                hasMoreAfter = try exists(conversationId, beyond: last, older: false, db)
            }
        }
        let edges = rows.compactMap { position, message in
            message.map { PageEdge(cursor: MessageCursor.encode(position, epoch: epoch), item: $0) }
        }
        return Page(edges: edges, hasMoreBefore: hasMoreBefore, hasMoreAfter: hasMoreAfter)
    }

    /// Up to `limit` rows on one side of `position` in display order, and whether more lie
    /// beyond them (one row more is read to tell, instead of a second query).
    private static func oneSide(
        _ conversationId: String, from position: MessagePosition?, older: Bool, limit: Int, _ db: Database
    ) throws(ConversationStoreError) -> (rows: [(MessagePosition, Message?)], more: Bool) {
        var rows = try fetch(conversationId, from: position, older: older, inclusive: false, limit: limit + 1, db)
        guard rows.count > limit else { return (rows, false) }
        if older { rows.removeFirst() } else { rows.removeLast() }
        return (rows, true)
    }

    /// Rows on one side of `position` (all rows when `nil`), in display order.
    private static func fetch(
        _ conversationId: String, from position: MessagePosition?, older: Bool, inclusive: Bool, limit: Int,
        _ db: Database
    ) throws(ConversationStoreError) -> [(MessagePosition, Message?)] {
        guard limit > 0 else { return [] }
        let comparison = (older ? "<" : ">") + (inclusive ? "=" : "")
        let bound = position == nil ? "" : "AND (pending, sort_seq, local_id) \(comparison) (?3, ?4, ?5)"
        let order = older ? "pending DESC, sort_seq DESC, local_id DESC" : "pending, sort_seq, local_id"
        let rows = try ConversationStoreError.translating("reading a page") {
            try db.query(
                """
                SELECT \(columns) FROM messenger_messages WHERE conversation_id = ?1 AND \(intact) \(bound)
                ORDER BY \(order) LIMIT ?2
                """, [.text(conversationId), .integer(Int64(limit))] + arguments(position)
            ) { (MessageStore.position(from: $0), message(from: $0)) }
        }
        return older ? rows.reversed() : rows
    }

    private static func exists(
        _ conversationId: String, beyond position: MessagePosition, older: Bool, _ db: Database
    ) throws(ConversationStoreError) -> Bool {
        try ConversationStoreError.translating("reading a page") {
            try db.query(
                """
                SELECT EXISTS(SELECT 1 FROM messenger_messages WHERE conversation_id = ?1 AND \(intact)
                    AND (pending, sort_seq, local_id) \(older ? "<" : ">") (?3, ?4, ?5))
                """, [.text(conversationId), .null] + arguments(position)
            ) { $0.int(0) != 0 }.first ?? false
        }
    }

    /// The position of the message whose `id` is `account/clientId`.
    private static func position(of id: String, conversationId: String, _ db: Database) throws(ConversationStoreError)
        -> MessagePosition
    {
        guard let slash = id.lastIndex(of: "/") else {
            throw ConversationStoreError(.notFound, "no message \(id) in the conversation")
        }
        let found = try ConversationStoreError.translating("finding a message") {
            try db.query(
                """
                SELECT \(columns) FROM messenger_messages
                WHERE conversation_id = ?1 AND sender_account = ?2 AND client_id = ?3
                """,
                [.text(conversationId), .text(String(id[..<slash])), .text(String(id[id.index(after: slash)...]))]
            ) { MessageStore.position(from: $0) }
        }
        guard let position = found.first else {
            throw ConversationStoreError(.notFound, "no message \(id) in the conversation")
        }
        return position
    }

    private static func arguments(_ position: MessagePosition?) -> [SQLValue] {
        guard let position else { return [] }
        return [.integer(position.pending ? 1 : 0), .integer(position.sortSeq), .integer(position.localId)]
    }
}
