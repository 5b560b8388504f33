import CourierCore

extension MessageStore {
    /// Stores a message that arrived (decrypted) from another device, and queues a "delivered up
    /// to its seq" receipt for its sender.
    /// - Parameters:
    ///   - message: the message; it needs a `serverSeq`. It is stored `delivered` (or `read`).
    ///   - db: the connection of the caller's transaction (or any connection of the file).
    /// - Returns: `false` when the conversation already holds a message with this sender and
    ///   client id: nothing was written.
    /// - Throws: `ConversationStoreError` `invalidArgument`, `diskFull`, `storage`; on a throw
    ///   nothing of the call was written.
    @discardableResult
    public static func insertIncoming(_ message: Message, in db: Database) throws(ConversationStoreError) -> Bool {
        try validate(message)
        guard let seq = message.serverSeq else {
            throw ConversationStoreError(.invalidArgument, "an incoming message needs its serverSeq")
        }
        return try ConversationStoreError.translating("storing an incoming message") {
            try db.messengerSavepoint {
                guard try insert(message, state: message.state == .read ? .read : .delivered, outgoing: false, in: db)
                else { return false }
                try db.run(
                    """
                    INSERT INTO messenger_receipts_out(conversation_id, recipient, kind, up_to_seq)
                    VALUES(?1, ?2, 'delivered', ?3)
                    ON CONFLICT DO UPDATE SET up_to_seq = max(up_to_seq, excluded.up_to_seq)
                    """, [.text(message.conversationId), .text(message.sender.account), .integer(seq)])
                return true
            }
        }
    }

    /// Stores a message this account wrote: `sending` before the server saw it, or `sent` with
    /// its `serverSeq` (a copy written by another of the account's devices).
    /// - Returns: `false` for a duplicate (conversation, sender account, client id).
    /// - Throws: `ConversationStoreError` `invalidArgument` (a pending message must be `sending`
    ///   or `failed`), `diskFull`, `storage`.
    @discardableResult
    public static func insertOutgoing(_ message: Message, in db: Database) throws(ConversationStoreError) -> Bool {
        try validate(message)
        if message.serverSeq == nil && message.state != .sending && message.state != .failed {
            throw ConversationStoreError(.invalidArgument, "a message without a serverSeq is sending or failed")
        }
        return try ConversationStoreError.translating("storing an outgoing message") {
            try db.messengerSavepoint {
                try insert(message, state: message.state, outgoing: true, in: db)
            }
        }
    }

    /// The server accepted an outgoing message and placed it at `serverSeq`; it moves from
    /// `sending` (or `failed`, when the ack was late) to `sent`. An ack for a message already
    /// past `sending` changes nothing.
    /// - Returns: whether the message moved.
    /// - Throws: `ConversationStoreError` `notFound` for an unknown client id, `invalidArgument`.
    @discardableResult
    public static func markSent(clientId: String, serverSeq: Int64, in db: Database) throws(ConversationStoreError)
        -> Bool
    {
        guard serverSeq > 0 else { throw ConversationStoreError(.invalidArgument, "serverSeq starts at 1") }
        return try moveOutgoing(
            clientId, set: "state = 'sent', server_seq = ?2", from: ["sending", "failed"], [.integer(serverSeq)], db)
    }

    /// An outgoing message could not be sent: `sending` → `failed`.
    /// - Returns: whether the message moved.
    /// - Throws: `ConversationStoreError` `notFound`.
    @discardableResult
    public static func markFailed(clientId: String, in db: Database) throws(ConversationStoreError) -> Bool {
        try moveOutgoing(clientId, set: "state = 'failed'", from: ["sending"], [], db)
    }

    /// The user retries a failed message: `failed` → `sending` (the only step back).
    /// - Returns: whether the message moved.
    /// - Throws: `ConversationStoreError` `notFound`.
    @discardableResult
    public static func retry(clientId: String, in db: Database) throws(ConversationStoreError) -> Bool {
        try moveOutgoing(clientId, set: "state = 'sending'", from: ["failed"], [], db)
    }

    /// The user saw the conversation up to `upToSeq`: incoming messages up to it become `read`,
    /// and a "read up to" receipt is queued for each of their senders.
    /// - Returns: how many messages became read.
    /// - Throws: `ConversationStoreError` `diskFull`, `storage`.
    @discardableResult
    public static func markRead(conversationId: String, upToSeq: Int64, in db: Database) throws(ConversationStoreError)
        -> Int
    {
        try ConversationStoreError.translating("marking messages read") {
            try db.messengerSavepoint {
                try db.run(
                    """
                    UPDATE messenger_messages SET state = 'read'
                    WHERE conversation_id = ?1 AND outgoing = 0 AND server_seq <= ?2 AND state != 'read'
                    """, [.text(conversationId), .integer(upToSeq)])
                let changed = db.changes
                try db.run(
                    """
                    INSERT INTO messenger_receipts_out(conversation_id, recipient, kind, up_to_seq)
                    SELECT conversation_id, sender_account, 'read', max(server_seq) FROM messenger_messages
                    WHERE conversation_id = ?1 AND outgoing = 0 AND server_seq <= ?2 GROUP BY sender_account
                    ON CONFLICT DO UPDATE SET up_to_seq = max(up_to_seq, excluded.up_to_seq)
                    """, [.text(conversationId), .integer(upToSeq)])
                return changed
            }
        }
    }

    /// Another device of this account read the conversation up to `upToSeq` (its read receipt
    /// arrived): incoming messages up to it become `read` here too, and no receipt is queued
    /// (that device sent it).
    /// - Returns: how many messages became read.
    /// - Throws: `ConversationStoreError` `diskFull`, `storage`.
    @discardableResult
    public static func markReadOnOtherDevice(conversationId: String, upToSeq: Int64, in db: Database)
        throws(ConversationStoreError) -> Int
    {
        try ConversationStoreError.translating("marking messages read on another device") {
            try db.run(
                """
                UPDATE messenger_messages SET state = 'read'
                WHERE conversation_id = ?1 AND outgoing = 0 AND server_seq <= ?2 AND state != 'read'
                """, [.text(conversationId), .integer(upToSeq)])
            return db.changes
        }
    }

    /// Notes a `serverSeq` that a control message (a receipt, a membership change) used, so gap
    /// detection does not report it as missing.
    /// - Throws: `ConversationStoreError` `diskFull`, `storage`.
    public static func recordControlSequence(conversationId: String, serverSeq: Int64, in db: Database)
        throws(ConversationStoreError)
    {
        try ConversationStoreError.translating("recording a control message's sequence number") {
            try db.run(
                "INSERT OR IGNORE INTO messenger_control_seqs(conversation_id, server_seq) VALUES(?1, ?2)",
                [.text(conversationId), .integer(serverSeq)])
        }
    }

    /// Deletes a conversation's messages; cursors issued before are refused as expired from now on.
    /// - Throws: `ConversationStoreError` `diskFull`, `storage`.
    public static func deleteHistory(conversationId: String, in db: Database) throws(ConversationStoreError) {
        try ConversationStoreError.translating("deleting a conversation's history") {
            try db.messengerSavepoint {
                for table in ["messenger_messages", "messenger_control_seqs", "messenger_receipts_out"] {
                    try db.run("DELETE FROM \(table) WHERE conversation_id = ?1", [.text(conversationId)])
                }
                try db.run(
                    """
                    INSERT INTO messenger_conversations(conversation_id, epoch) VALUES(?1, 1)
                    ON CONFLICT DO UPDATE SET epoch = epoch + 1
                    """, [.text(conversationId)])
            }
        }
    }

    private static func validate(_ message: Message) throws(ConversationStoreError) {
        guard !message.clientId.isEmpty, !message.conversationId.isEmpty, !message.sender.account.isEmpty else {
            throw ConversationStoreError(.invalidArgument, "a message needs a client id, a conversation and a sender")
        }
        if let seq = message.serverSeq, seq <= 0 {
            throw ConversationStoreError(.invalidArgument, "serverSeq starts at 1")
        }
    }

    /// Inserts the row unless it is a duplicate; returns whether it did.
    private static func insert(_ message: Message, state: MessageState, outgoing: Bool, in db: Database) throws
        -> Bool
    {
        let attachment = try message.attachment.map { SQLValue.blob(try $0.encoded()) } ?? .null
        try db.run(
            """
            INSERT OR IGNORE INTO messenger_messages(conversation_id, client_id, sender_account, sender_device,
                server_seq, body, attachment, state, outgoing, sent_at, received_at)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """,
            [
                .text(message.conversationId), .text(message.clientId), .text(message.sender.account),
                .integer(Int64(message.sender.device)), message.serverSeq.map(SQLValue.integer) ?? .null,
                .text(message.body), attachment, .text(state.rawValue),
                .integer(outgoing ? 1 : 0), .integer(message.sentAt), message.receivedAt.map(SQLValue.integer) ?? .null,
            ])
        guard db.changes > 0 else { return false }
        try db.run(
            "INSERT OR IGNORE INTO messenger_conversations(conversation_id) VALUES(?1)", [.text(message.conversationId)]
        )
        return true
    }

    /// Moves an outgoing message from one of `from` by `set` (`?1` is the client id).
    private static func moveOutgoing(
        _ clientId: String, set: String, from: [String], _ arguments: [SQLValue], _ db: Database
    ) throws(ConversationStoreError) -> Bool {
        try ConversationStoreError.translating("updating an outgoing message") {
            let states = from.map { "'\($0)'" }.joined(separator: ", ")
            try db.run(
                "UPDATE messenger_messages SET \(set) WHERE client_id = ?1 AND outgoing = 1 AND state IN (\(states))",
                [.text(clientId)] + arguments)
            if db.changes > 0 { return true }
            let known = try db.query(
                "SELECT 1 FROM messenger_messages WHERE client_id = ?1 AND outgoing = 1", [.text(clientId)]
            ) { _ in true }
            guard !known.isEmpty else { throw ConversationStoreError(.notFound, "no outgoing message \(clientId)") }
            return false
        }
    }
}
