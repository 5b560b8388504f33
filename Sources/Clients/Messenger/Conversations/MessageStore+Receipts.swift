import CourierCore

/// Which receipt: the recipient's device has the messages, or the recipient read them.
public enum ReceiptKind: String, Sendable, Hashable, CaseIterable {
    /// The messages reached a device of the recipient.
    case delivered
    /// The recipient read them.
    case read
}

/// A receipt waiting to be sent: "`kind` up to `upToSeq`" for `recipient`'s messages in a
/// conversation. One receipt covers every message up to the seq, so a burst of messages costs
/// one receipt.
public struct PendingReceipt: Sendable, Hashable {
    /// The conversation.
    public var conversationId: String
    /// The account whose messages it acknowledges (the receipt goes to its devices).
    public var recipient: String
    /// Delivered or read.
    public var kind: ReceiptKind
    /// The highest `serverSeq` it covers.
    public var upToSeq: Int64
}

extension MessageStore {
    /// A receipt arrived: this account's messages in the conversation with a `serverSeq` up to
    /// `upToSeq` move forward to `kind` (sent → delivered → read); a late or repeated receipt
    /// never moves one back, and pending or failed messages are not touched.
    /// - Parameters:
    ///   - reader: the device that sent the receipt.
    /// - Returns: how many messages moved.
    /// - Throws: `ConversationStoreError` `diskFull`, `storage`.
    @discardableResult
    public static func applyReceipt(
        kind: ReceiptKind, conversationId: String, reader: MessageSender, upToSeq: Int64, in db: Database
    ) throws(ConversationStoreError) -> Int {
        let lower = kind == .read ? "'sent', 'delivered'" : "'sent'"
        return try ConversationStoreError.translating("applying a receipt from \(reader.account)") {
            try db.run(
                """
                UPDATE messenger_messages SET state = ?3
                WHERE conversation_id = ?1 AND outgoing = 1 AND server_seq <= ?2 AND state IN (\(lower))
                """, [.text(conversationId), .integer(upToSeq), .text(kind.rawValue)])
            return db.changes
        }
    }

    /// The receipts to send now: per conversation and sender, the highest seq not yet
    /// acknowledged.
    /// - Parameters:
    ///   - sendReadReceipts: the user's setting; when off, read receipts stay unsent.
    /// - Throws: `ConversationStoreError` `storage`.
    public static func pendingReceipts(sendReadReceipts: Bool, in db: Database) throws(ConversationStoreError)
        -> [PendingReceipt]
    {
        try ConversationStoreError.translating("reading pending receipts") {
            try db.query(
                """
                SELECT conversation_id, recipient, kind, up_to_seq FROM messenger_receipts_out
                WHERE up_to_seq > sent_up_to_seq AND (kind = 'delivered' OR ?1)
                ORDER BY conversation_id, recipient, kind
                """, [.integer(sendReadReceipts ? 1 : 0)]
            ) { row in
                ReceiptKind(rawValue: row.text(2) ?? "").map {
                    PendingReceipt(
                        conversationId: row.text(0) ?? "", recipient: row.text(1) ?? "", kind: $0,
                        upToSeq: row.int(3))
                }
            }.compactMap { $0 }
        }
    }

    /// The receipts were sent: each stops being pending unless a newer seq was queued since.
    /// - Throws: `ConversationStoreError` `diskFull`, `storage`.
    public static func markReceiptsSent(_ receipts: [PendingReceipt], in db: Database) throws(ConversationStoreError) {
        try ConversationStoreError.translating("marking receipts sent") {
            try db.savepoint { db in
                for receipt in receipts {
                    try db.run(
                        """
                        UPDATE messenger_receipts_out SET sent_up_to_seq = max(sent_up_to_seq, ?4)
                        WHERE conversation_id = ?1 AND recipient = ?2 AND kind = ?3
                        """,
                        [
                            .text(receipt.conversationId), .text(receipt.recipient), .text(receipt.kind.rawValue),
                            .integer(receipt.upToSeq),
                        ])
                }
            }
        }
    }
}
