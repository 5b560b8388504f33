import CourierCore
import Foundation
import Messenger
import Pagination

/// `courier-bench messenger-store`: the conversation store's incoming-message inserts (one
/// transaction each, as the decrypt path commits them) and its ordered page reads (history by
/// `before:` cursors, 50 rows a page), each beside plain SQLite doing the same to the same rows
/// in a bare table with the same unique key, same run.
struct MessengerStoreBenchmark {
    let runs: Int
    let records: Int

    func run() throws {
        print("== messenger-store: \(records) messages, median of \(runs) runs ==")
        var inserts: [Double] = []
        var rawInserts: [Double] = []
        var pages: [Double] = []
        var rawPages: [Double] = []
        for _ in 0..<runs {
            let directory = NSTemporaryDirectory() + "courier-bench-messenger-store-" + Identifier.uuid()
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let store = try ConversationStore(path: directory + "/store.sqlite", options: Self.options)
            inserts.append(try storeInserts(store))
            pages.append(try storePages(store))
            let raw = try Database(path: directory + "/raw.sqlite", options: Self.options)
            rawInserts.append(try plainInserts(raw))
            rawPages.append(try plainPages(raw))
        }
        print(
            line("insertIncoming, txn each", median(inserts), "/s", median(rawInserts), "plain SQLite insert, txn each")
        )
        print(line("ordered page read (before:)", median(pages), "rows/s", median(rawPages), "plain keyset SELECT"))
    }

    private static var options: Database.Options {
        var options = Database.Options()
        options.synchronous = "NORMAL"
        return options
    }

    private func message(_ index: Int) -> Message {
        Message(
            clientId: "client-\(index)", conversationId: "conversation",
            sender: MessageSender(account: "bob", device: 1),
            serverSeq: Int64(index + 1), body: "message number \(index) " + String(repeating: "x", count: 64),
            state: .delivered, sentAt: 1_700_000_000_000 + Int64(index), receivedAt: 1_700_000_000_500 + Int64(index))
    }

    private func storeInserts(_ store: ConversationStore) throws -> Double {
        try rate(records) {
            for index in 0..<records {
                let message = message(index)
                _ = try store.database.transaction { db in try MessageStore.insertIncoming(message, in: db) }
            }
        }
    }

    private func storePages(_ store: ConversationStore) throws -> Double {
        try rate(records) {
            var page = try store.page(conversationId: "conversation", .latest, limit: 50)
            var rows = page.edges.count
            while page.hasMoreBefore, let first = page.edges.first {
                page = try store.page(conversationId: "conversation", .before(first.cursor), limit: 50)
                rows += page.edges.count
            }
            guard rows == records else { throw BenchError("the store paged \(rows) of \(records) messages") }
        }
    }

    private func plainInserts(_ db: Database) throws -> Double {
        try db.execute(
            """
            CREATE TABLE messages(id INTEGER PRIMARY KEY, conversation_id TEXT NOT NULL, client_id TEXT NOT NULL,
                sender_account TEXT NOT NULL, sender_device INTEGER NOT NULL, server_seq INTEGER, body TEXT NOT NULL,
                state TEXT NOT NULL, sent_at INTEGER NOT NULL, received_at INTEGER,
                UNIQUE(conversation_id, sender_account, client_id));
            CREATE INDEX messages_order ON messages(conversation_id, server_seq);
            """)
        return try rate(records) {
            for index in 0..<records {
                let message = message(index)
                try db.transaction {
                    try db.run(
                        """
                        INSERT INTO messages(conversation_id, client_id, sender_account, sender_device, server_seq,
                            body, state, sent_at, received_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                        """,
                        [
                            .text(message.conversationId), .text(message.clientId), .text(message.sender.account),
                            .integer(1), .integer(message.serverSeq ?? 0), .text(message.body),
                            .text(message.state.rawValue), .integer(message.sentAt), .integer(message.receivedAt ?? 0),
                        ])
                }
            }
        }
    }

    private func plainPages(_ db: Database) throws -> Double {
        try rate(records) {
            var before = Int64.max
            var rows = 0
            while true {
                let page = try db.readTransaction {
                    try db.query(
                        """
                        SELECT client_id, sender_account, server_seq, body, state, sent_at, received_at FROM messages
                        WHERE conversation_id = ?1 AND server_seq < ?2 ORDER BY server_seq DESC LIMIT 50
                        """, [.text("conversation"), .integer(before)]
                    ) { ($0.text(0), $0.text(1), $0.int(2), $0.text(3), $0.text(4), $0.int(5), $0.int(6)) }
                }
                guard let last = page.last else { break }
                rows += page.count
                before = last.2
            }
            guard rows == records else { throw BenchError("plain SQLite paged \(rows) of \(records) messages") }
        }
    }

    /// `count` divided by the seconds `body` took.
    private func rate(_ count: Int, _ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(count) / max(seconds, 1e-9)
    }
}
