import CourierCore
import Foundation
@testable import Messenger
import SignalProtocol
import Testing

@Suite struct MessageStoreTests {
    typealias F = MessageStoreFixtures

    @Test(arguments: ["memory", "file"]) func duplicateIncomingMessagesAreDropped(backend: String) throws {
        let store = try F.store(backend)
        #expect(try store.insertIncoming(F.incoming("m1", seq: 1)))
        var copy = F.incoming("m1", seq: 1)
        copy.body = "a replayed copy"
        #expect(try store.insertIncoming(copy) == false)
        #expect(try store.messages(conversationId: "c1").map(\.body) == ["body m1"])
        // The same client id from another account is another message.
        #expect(try store.insertIncoming(F.incoming("m1", seq: 2, from: F.carol)))
        #expect(try store.insertOutgoing(F.outgoing("o1")))
        #expect(try store.insertOutgoing(F.outgoing("o1")) == false)
        #expect(try store.messages(conversationId: "c1").count == 3)
    }

    @Test(arguments: ["memory", "file"]) func messagesAreOrderedBySeqWithPendingRowsLast(backend: String) throws {
        let store = try F.store(backend)
        try store.insertOutgoing(F.outgoing("p1"))
        try store.insertIncoming(F.incoming("s5", seq: 5))
        try store.insertOutgoing(F.outgoing("p2"))
        try store.insertIncoming(F.incoming("s2", seq: 2))
        try store.insertIncoming(F.incoming("s9", seq: 9))
        #expect(try store.messages(conversationId: "c1").map(\.clientId) == ["s2", "s5", "s9", "p1", "p2"])
        // The ack places p2 by its seq; p1 stays last.
        try store.markSent(clientId: "p2", serverSeq: 7)
        #expect(try store.messages(conversationId: "c1").map(\.clientId) == ["s2", "s5", "p2", "s9", "p1"])
    }

    @Test func stateOnlyMovesForwardExceptRetry() throws {
        let store = try F.store("memory")
        try store.insertOutgoing(F.outgoing("o1"))
        func state() throws -> MessageState? {
            try store.message(conversationId: "c1", senderAccount: "alice", clientId: "o1")?.state
        }
        #expect(try store.markFailed(clientId: "o1"))
        #expect(try state() == .failed)
        #expect(try store.retry(clientId: "o1"))
        #expect(try state() == .sending)
        #expect(try store.markSent(clientId: "o1", serverSeq: 3))
        #expect(try store.markFailed(clientId: "o1") == false)
        #expect(try store.retry(clientId: "o1") == false)
        #expect(try store.applyReceipt(kind: .read, conversationId: "c1", reader: F.bob, upToSeq: 3) == 1)
        // A late delivered receipt, a late ack and a failure never move it back.
        #expect(try store.applyReceipt(kind: .delivered, conversationId: "c1", reader: F.bob, upToSeq: 3) == 0)
        #expect(try store.markSent(clientId: "o1", serverSeq: 4) == false)
        #expect(try state() == .read)
        #expect(try store.message(conversationId: "c1", senderAccount: "alice", clientId: "o1")?.serverSeq == 3)
        #expect(throws: ConversationStoreError.self) { try store.markSent(clientId: "unknown", serverSeq: 1) }
    }

    @Test func aLateAckMovesAFailedMessageToSent() throws {
        let store = try F.store("memory")
        try store.insertOutgoing(F.outgoing("o1"))
        try store.markFailed(clientId: "o1")
        #expect(try store.markSent(clientId: "o1", serverSeq: 1))
        #expect(try store.messages(conversationId: "c1").first?.state == .sent)
    }

    @Test func receiptsMoveOwnSentMessagesUpToTheirSeq() throws {
        let store = try F.store("memory")
        for (index, id) in ["o1", "o2", "o3", "o4"].enumerated() {
            try store.insertOutgoing(F.outgoing(id))
            if index < 3 { try store.markSent(clientId: id, serverSeq: Int64(index * 2 + 1)) }
        }
        try store.insertIncoming(F.incoming("in", seq: 2))
        // o1 = 1, o2 = 3, o3 = 5, o4 pending.
        #expect(try store.applyReceipt(kind: .delivered, conversationId: "c1", reader: F.bob, upToSeq: 5) == 3)
        #expect(try store.applyReceipt(kind: .read, conversationId: "c1", reader: F.bob, upToSeq: 3) == 2)
        #expect(try store.applyReceipt(kind: .read, conversationId: "other", reader: F.bob, upToSeq: 9) == 0)
        let states = try store.messages(conversationId: "c1").map { "\($0.clientId):\($0.state)" }
        #expect(states == ["o1:read", "in:delivered", "o2:read", "o3:delivered", "o4:sending"])
    }

    @Test func receiptsToSendAreBatchedPerConversationAndSender() throws {
        let store = try F.store("memory")
        for seq in Int64(1)...5 { try store.insertIncoming(F.incoming("b\(seq)", seq: seq)) }
        try store.insertIncoming(F.incoming("c6", seq: 6, from: F.carol))
        try store.insertIncoming(F.incoming("x1", seq: 1, in: "c2"))
        let delivered = try store.pendingReceipts(sendReadReceipts: true)
        #expect(
            delivered == [
                .init(conversationId: "c1", recipient: "bob", kind: .delivered, upToSeq: 5),
                .init(conversationId: "c1", recipient: "carol", kind: .delivered, upToSeq: 6),
                .init(conversationId: "c2", recipient: "bob", kind: .delivered, upToSeq: 1),
            ])
        try store.markReceiptsSent(delivered)
        #expect(try store.pendingReceipts(sendReadReceipts: true).isEmpty)

        #expect(try store.markRead(conversationId: "c1", upToSeq: 4) == 4)
        #expect(try store.pendingReceipts(sendReadReceipts: false).isEmpty)
        let read = try store.pendingReceipts(sendReadReceipts: true)
        #expect(read == [.init(conversationId: "c1", recipient: "bob", kind: .read, upToSeq: 4)])
        // A newer seq queued while the receipt was in flight stays pending after it is sent.
        try store.markRead(conversationId: "c1", upToSeq: 6)
        try store.markReceiptsSent(read)
        #expect(
            try store.pendingReceipts(sendReadReceipts: true) == [
                .init(conversationId: "c1", recipient: "bob", kind: .read, upToSeq: 5),
                .init(conversationId: "c1", recipient: "carol", kind: .read, upToSeq: 6),
            ])
    }

    @Test func gapsBetweenStoredSequenceNumbersAreReported() throws {
        let store = try F.store("memory")
        for seq: Int64 in [3, 4, 8, 12, 13] { try store.insertIncoming(F.incoming("m\(seq)", seq: seq)) }
        try store.insertOutgoing(F.outgoing("pending"))
        #expect(try store.gaps(conversationId: "c1") == [5...7, 9...11])
        // A control message (a receipt) used seq 10; our ack filled 6.
        try store.recordControlSequence(conversationId: "c1", serverSeq: 10)
        try store.markSent(clientId: "pending", serverSeq: 6)
        #expect(try store.gaps(conversationId: "c1") == [5...5, 7...7, 9...9, 11...11])
        #expect(try store.gaps(conversationId: "empty").isEmpty)
    }

    @Test func migrateTwiceChangesNothingAndSharesAFileWithTheSignalStore() throws {
        let path = F.temporaryPath()
        let keys = try InMemoryKeyProvider()
        let identity = try IdentityKeyPair.generate()
        _ = try SQLiteSignalStore(path: path, keyProvider: keys, identity: identity, registrationId: 7)
        let store = try ConversationStore(path: path)
        try store.insertIncoming(F.incoming("m1", seq: 1))
        try store.database.write { db in
            try MessageStore.migrate(db)
            try MessageStore.migrate(db)
        }
        // Also inside a transaction the caller opened (a savepoint, not a second BEGIN).
        try store.transaction { db in try MessageStore.migrate(db) }
        let reopened = try ConversationStore(path: path)
        #expect(try reopened.messages(conversationId: "c1").map(\.clientId) == ["m1"])
        // Signal's migrator still opens the file that now has the messenger's tables.
        _ = try SQLiteSignalStore(path: path, keyProvider: keys, identity: identity, registrationId: 7)
    }

    @Test func theAppAndTheExtensionShareOneFile() throws {
        let path = F.temporaryPath()
        let app = try ConversationStore(path: path)
        let notificationExtension = try ConversationStore(path: path)
        #expect(try notificationExtension.insertIncoming(F.incoming("m1", seq: 1)))
        // The app fetched the same envelope too: one message.
        #expect(try app.insertIncoming(F.incoming("m1", seq: 1)) == false)
        #expect(try app.messages(conversationId: "c1").map(\.clientId) == ["m1"])
        #expect(try app.conversations().map(\.unreadCount) == [1])
    }

    @Test func aFileMigratedByANewerBuildIsRefused() throws {
        let path = F.temporaryPath()
        let store = try ConversationStore(path: path)
        try store.database.write { db in
            try db.run("INSERT INTO messenger_migrations(name) VALUES('messenger from the future')")
        }
        let error = #expect(throws: ConversationStoreError.self) { try ConversationStore(path: path) }
        #expect(error?.underlying is DatabaseSchemaError)
    }

    @Test func aRolledBackTransactionLeavesNothing() throws {
        struct DecryptFailed: Error {}
        let store = try F.store("file")
        // The decrypt path's own table (session state) in the same file and transaction.
        try store.database.write { db in try db.execute("CREATE TABLE sessions(name TEXT PRIMARY KEY, record BLOB)") }
        #expect(throws: ConversationStoreError.self) {
            try store.transaction { db in
                try db.run("INSERT INTO sessions(name, record) VALUES('bob.2', x'01')")
                try MessageStore.insertIncoming(F.incoming("m1", seq: 1), in: db)
                try MessageStore.markRead(conversationId: "c1", upToSeq: 1, in: db)
                throw DecryptFailed()
            }
        }
        #expect(try store.messages(conversationId: "c1").isEmpty)
        #expect(try store.pendingReceipts(sendReadReceipts: true).isEmpty)
        #expect(try store.conversations().isEmpty)
        #expect(try store.database.read { db in try db.query("SELECT count(*) FROM sessions") { $0.int(0) } } == [0])
        // The same message stores normally afterwards (it was not recorded as a duplicate).
        #expect(try store.insertIncoming(F.incoming("m1", seq: 1)))
    }

    @Test(arguments: [
        Message(
            clientId: "", conversationId: "c1", sender: F.bob, serverSeq: 1, body: "", state: .delivered, sentAt: 0),
        Message(clientId: "m", conversationId: "", sender: F.bob, serverSeq: 1, body: "", state: .delivered, sentAt: 0),
        Message(
            clientId: "m", conversationId: "c1", sender: .init(account: "", device: 1), serverSeq: 1, body: "",
            state: .delivered, sentAt: 0),
        Message(
            clientId: "m", conversationId: "c1", sender: F.bob, serverSeq: 0, body: "", state: .delivered, sentAt: 0),
        Message(
            clientId: "m", conversationId: "c1", sender: F.bob, serverSeq: nil, body: "", state: .delivered, sentAt: 0),
    ]) func invalidIncomingMessagesAreRefused(message: Message) throws {
        let store = try F.store("memory")
        let error = #expect(throws: ConversationStoreError.self) { try store.insertIncoming(message) }
        #expect(error?.code == .invalidArgument)
        #expect(try store.conversations().isEmpty)
    }

    @Test func aPendingOutgoingMessageMustBeSendingOrFailed() throws {
        let store = try F.store("memory")
        var message = F.outgoing("o1")
        message.state = .read
        let error = #expect(throws: ConversationStoreError.self) { try store.insertOutgoing(message) }
        #expect(error?.code == .invalidArgument)
    }

    @Test func damagedRowsAreSkippedNotFatal() throws {
        let store = try F.store("file")
        for seq in Int64(1)...4 { try store.insertIncoming(F.incoming("m\(seq)", seq: seq)) }
        try store.database.write { db in
            try db.run("UPDATE messenger_messages SET state = 'garbled' WHERE client_id = 'm2'")
            try db.run("UPDATE messenger_messages SET sender_account = '' WHERE client_id = 'm3'")
            try db.run("UPDATE messenger_messages SET server_seq = -4 WHERE client_id = 'm4'")
        }
        #expect(try store.messages(conversationId: "c1").map(\.clientId) == ["m1"])
        #expect(try store.page(conversationId: "c1", .latest, limit: 10).edges.map(\.item.clientId) == ["m1"])
        // The newest intact row stands for the conversation, and a page never consists of
        // damaged rows only (a paginator would have no cursor to go on from).
        #expect(try store.conversations().map(\.lastMessage.clientId) == ["m1"])
        let newest = try store.page(conversationId: "c1", .latest, limit: 1)
        #expect(newest.edges.map(\.item.clientId) == ["m1"])
        #expect(!newest.hasMoreBefore && !newest.hasMoreAfter)
    }

    @Test func aFullDiskIsAClearErrorAndWritesNothingHalfway() throws {
        var options = Database.Options()
        options.maximumPageCount = 24
        let store = try F.store("file", options: options)
        var stored = 0
        var failure: ConversationStoreError?
        let body = String(repeating: "x", count: 2_000)
        for seq in Int64(1)...200 {
            var message = F.incoming("m\(seq)", seq: seq, from: seq.isMultiple(of: 2) ? F.bob : F.carol)
            message.body = body
            do {
                try store.insertIncoming(message)
                stored += 1
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure)
        #expect(stored > 0)
        #expect(error.code == .diskFull)
        #expect((error.underlying as? DatabaseError)?.isDiskFull == true)
        // Every message stored has its receipt queued; the refused one left neither.
        let messages = try store.messages(conversationId: "c1")
        #expect(messages.count == stored)
        let receipts = try store.pendingReceipts(sendReadReceipts: false)
        #expect(receipts.map(\.upToSeq).max() == Int64(stored))
        // Reads still work, and so does a write that needs no new page.
        try store.markReceiptsSent(receipts)
        #expect(try store.pendingReceipts(sendReadReceipts: false).isEmpty)
    }
}

/// Stores and messages for the conversation store's tests.
enum MessageStoreFixtures {
    static let alice = MessageSender(account: "alice", device: 1)
    static let bob = MessageSender(account: "bob", device: 2)
    static let carol = MessageSender(account: "carol", device: 1)

    /// A fresh store: `":memory:"` or a file in the temporary directory.
    static func store(_ backend: String, options: Database.Options = .init()) throws -> ConversationStore {
        try ConversationStore(path: backend == "file" ? temporaryPath() : ":memory:", options: options)
    }

    static func temporaryPath() -> String {
        NSTemporaryDirectory() + "messenger-store-\(UUID().uuidString).sqlite"
    }

    /// A message from `sender` in `conversation` (`c1` by default).
    static func incoming(
        _ clientId: String, seq: Int64, from sender: MessageSender = bob, in conversation: String = "c1"
    ) -> Message {
        Message(
            clientId: clientId, conversationId: conversation, sender: sender, serverSeq: seq, body: "body \(clientId)",
            state: .delivered, sentAt: 1_000 + seq, receivedAt: 2_000 + seq)
    }

    /// One of Alice's own messages, `sending`.
    static func outgoing(_ clientId: String, in conversation: String = "c1") -> Message {
        Message(
            clientId: clientId, conversationId: conversation, sender: alice, body: "mine \(clientId)", state: .sending,
            sentAt: 5_000)
    }
}
