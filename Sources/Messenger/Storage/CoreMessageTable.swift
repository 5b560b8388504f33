import CourierCore

/// A minimal messages table (`messenger_core_messages`) behind `IncomingMessageSink`.
struct CoreMessageTable: IncomingMessageSink {
    private static let order = ["sending": 0, "sent": 1, "received": 1, "delivered": 2, "read": 3]

    func migrate(_ db: Database) throws {
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS messenger_core_messages (
                sender_account TEXT NOT NULL, sender_device INTEGER NOT NULL, client_id TEXT NOT NULL,
                conversation_id TEXT NOT NULL, server_seq INTEGER, body TEXT NOT NULL, attachment BLOB,
                state TEXT NOT NULL, sent_at INTEGER NOT NULL, received_at INTEGER NOT NULL,
                PRIMARY KEY (sender_account, sender_device, client_id));
            CREATE INDEX IF NOT EXISTS messenger_core_messages_order
                ON messenger_core_messages (conversation_id, server_seq)
            """)
    }

    func store(_ message: StoredMessage, in db: Database) throws -> Bool {
        try db.run(
            """
            INSERT OR IGNORE INTO messenger_core_messages (sender_account, sender_device, client_id,
                conversation_id, server_seq, body, attachment, state, sent_at, received_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(message.senderAccount), .integer(Int64(message.senderDevice)), .text(message.clientId),
                .text(message.conversationId), message.serverSeq.map(SQLValue.integer) ?? .null,
                .text(message.body), message.attachment.map(SQLValue.blob) ?? .null, .text(message.state),
                .integer(message.sentAt), .integer(message.receivedAt),
            ])
        return db.changes == 1
    }

    func markSent(clientId: String, serverSeq: Int64, in db: Database) throws {
        try db.run(
            "UPDATE messenger_core_messages SET server_seq = ?, state = 'sent' WHERE client_id = ? AND state = 'sending'",
            [.integer(serverSeq), .text(clientId)])
    }

    func applyReceipt(state: String, conversation: String, upToSeq: Int64, in db: Database) throws {
        let rank = Self.order[state] ?? 0
        let lower = Self.order.filter { $0.value < rank && $0.key != "received" }.map { "'\($0.key)'" }
        guard !lower.isEmpty else { return }
        try db.run(
            """
            UPDATE messenger_core_messages SET state = ? WHERE conversation_id = ? AND server_seq <= ?
                AND state IN (\(lower.joined(separator: ", "))) AND state != 'received'
            """,
            [.text(state), .text(conversation), .integer(upToSeq)])
    }

    func pendingOutgoing(from account: String, device: UInt32, db: Database) throws -> [StoredMessage] {
        try select(
            "WHERE sender_account = ? AND sender_device = ? AND state = 'sending' ORDER BY sent_at, rowid",
            [.text(account), .integer(Int64(device))], db: db)
    }

    func messages(in conversation: String, db: Database) throws -> [StoredMessage] {
        try select(
            "WHERE conversation_id = ? ORDER BY server_seq IS NULL, server_seq, received_at", [.text(conversation)],
            db: db)
    }

    private func select(_ clause: String, _ arguments: [SQLValue], db: Database) throws -> [StoredMessage] {
        try db.query(
            """
            SELECT client_id, conversation_id, sender_account, sender_device, server_seq, body, attachment, state,
                sent_at, received_at FROM messenger_core_messages
            """ + " " + clause, arguments
        ) { row in
            StoredMessage(
                clientId: row.text(0) ?? "", conversationId: row.text(1) ?? "", senderAccount: row.text(2) ?? "",
                senderDevice: UInt32(truncatingIfNeeded: row.int(3)), serverSeq: row.isNull(4) ? nil : row.int(4),
                body: row.text(5) ?? "", attachment: row.isNull(6) ? nil : row.bytes(6), state: row.text(7) ?? "",
                sentAt: row.int(8), receivedAt: row.int(9))
        }
    }
}
