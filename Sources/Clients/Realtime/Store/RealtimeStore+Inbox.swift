import CourierCore

extension RealtimeStore {
    /// Stores `item` unless its id was seen before, and tells whether it left a gap in its
    /// conversation's sequence numbers.
    /// - Throws: `RealtimeError` `storage`.
    public func receive(_ item: IncomingItem) throws(RealtimeError) -> InboxOutcome {
        try access { db in
            let highest =
                try db.query(
                    "SELECT max(server_seq) FROM inbox WHERE conversation = ?1", [.text(item.conversation)]
                ) { $0.isNull(0) ? nil : $0.int(0) }.first ?? nil
            try db.run(
                "INSERT OR IGNORE INTO inbox(id, conversation, server_seq, body) VALUES(?1, ?2, ?3, ?4)",
                [.text(item.id), .text(item.conversation), .integer(item.serverSeq), .text(item.body.description)])
            guard db.changes > 0 else { return .duplicate }
            if let highest, item.serverSeq > highest + 1 {
                return .acceptedAfterGap(missing: (highest + 1)...(item.serverSeq - 1))
            }
            return .accepted
        }
    }

    /// The items received in `conversation`, in `serverSeq` order (never the device clock).
    /// - Throws: `RealtimeError` `storage`.
    public func received(conversation: String) throws(RealtimeError) -> [IncomingItem] {
        try access { db in
            try db.query(
                "SELECT id, server_seq, body FROM inbox WHERE conversation = ?1 ORDER BY server_seq",
                [.text(conversation)]
            ) { row in
                IncomingItem(
                    id: row.text(0) ?? "", conversation: conversation, serverSeq: row.int(1),
                    body: (try? JSONParser.parse(row.text(2) ?? "null")) ?? .null)
            }
        }
    }
}
