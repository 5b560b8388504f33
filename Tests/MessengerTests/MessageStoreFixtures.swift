import CourierCore
import Foundation
import Messenger

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
