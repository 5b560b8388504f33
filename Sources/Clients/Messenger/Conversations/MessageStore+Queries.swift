import CourierCore

extension MessageStore {
    /// Every stored message of a conversation in display order: by `serverSeq`, then the
    /// pending ones in the order they were written. Damaged rows are skipped.
    /// - Throws: `ConversationStoreError` `storage`.
    public static func messages(conversationId: String, in db: Database) throws(ConversationStoreError) -> [Message] {
        try ConversationStoreError.translating("reading a conversation") {
            try db.query(
                """
                SELECT \(columns) FROM messenger_messages WHERE conversation_id = ?1 AND \(intact)
                ORDER BY pending, sort_seq, local_id
                """, [.text(conversationId)], row: message(from:)
            ).compactMap { $0 }
        }
    }

    /// The message `clientId` of `senderAccount` in a conversation.
    /// - Throws: `ConversationStoreError` `storage`.
    public static func message(
        conversationId: String, senderAccount: String, clientId: String, in db: Database
    ) throws(ConversationStoreError) -> Message? {
        try ConversationStoreError.translating("reading a message") {
            try db.query(
                """
                SELECT \(columns) FROM messenger_messages
                WHERE conversation_id = ?1 AND sender_account = ?2 AND client_id = ?3
                """, [.text(conversationId), .text(senderAccount), .text(clientId)], row: message(from:)
            ).first ?? nil
        }
    }

    /// The `serverSeq` ranges missing between the sequence numbers stored for a conversation
    /// (messages and recorded control messages), lowest first: fetch them from the server.
    /// - Throws: `ConversationStoreError` `storage`.
    public static func gaps(conversationId: String, in db: Database) throws(ConversationStoreError)
        -> [ClosedRange<Int64>]
    {
        try ConversationStoreError.translating("finding gaps") {
            try db.query(
                """
                SELECT previous + 1, seq - 1 FROM (
                    SELECT seq, lag(seq) OVER (ORDER BY seq) AS previous FROM (
                        SELECT server_seq AS seq FROM messenger_messages
                        WHERE conversation_id = ?1 AND server_seq IS NOT NULL
                        UNION SELECT server_seq FROM messenger_control_seqs WHERE conversation_id = ?1))
                WHERE seq > previous + 1 ORDER BY seq
                """, [.text(conversationId)]
            ) { $0.int(0)...$0.int(1) }
        }
    }

    /// The conversations that hold messages, most recently written first, each with its last
    /// message and its unread count.
    /// - Throws: `ConversationStoreError` `storage`.
    public static func conversations(in db: Database) throws(ConversationStoreError) -> [ConversationSummary] {
        try ConversationStoreError.translating("listing conversations") {
            try db.query(
                """
                SELECT \(columns.split(separator: ",").map { "m." + $0.trimmingPrefix(" ") }.joined(separator: ", ")),
                    (SELECT count(*) FROM messenger_messages u
                     WHERE u.conversation_id = c.conversation_id AND u.outgoing = 0 AND u.state != 'read')
                FROM messenger_conversations c JOIN messenger_messages m ON m.local_id = (
                    SELECT local_id FROM messenger_messages WHERE conversation_id = c.conversation_id AND \(intact)
                    ORDER BY pending DESC, sort_seq DESC, local_id DESC LIMIT 1)
                ORDER BY m.local_id DESC
                """
            ) { row in
                message(from: row).map {
                    ConversationSummary(
                        conversationId: $0.conversationId, lastMessage: $0, unreadCount: Int(row.int(13)))
                }
            }.compactMap { $0 }
        }
    }

    /// The conversation's history epoch: it changes when its history is deleted.
    static func epoch(_ conversationId: String, in db: Database) throws -> Int64 {
        try db.query("SELECT epoch FROM messenger_conversations WHERE conversation_id = ?1", [.text(conversationId)]) {
            $0.int(0)
        }.first ?? 0
    }
}
