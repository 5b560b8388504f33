import Foundation
import Realtime

/// Where an outgoing message is: `sending` → `sent` (the server gave it a `serverSeq`) →
/// `delivered` → `read`, or `failed` (a retry moves it back to `sending`). It is the Realtime
/// outbox's state: the messenger's send queue keeps the outbox's semantics (see
/// `MessengerClient.retryPendingSends()`); the store only ever moves it forward.
public typealias MessageState = OutboxState

/// The device that wrote a message: an account and one of its devices.
public struct MessageSender: Sendable, Hashable {
    /// The account id.
    public var account: String
    /// The device id within the account.
    public var device: Int

    /// Creates a sender.
    public init(account: String, device: Int) {
        self.account = account
        self.device = device
    }
}

/// One message of a conversation as the device stores it, in plaintext (it never leaves the
/// device's store).
public struct Message: Sendable, Equatable, Identifiable {
    /// The sender's id for the message (a UUID), kept across retries: with the sender's account
    /// it identifies the message, so a second copy is dropped.
    public var clientId: String
    /// The conversation (a 1:1 or a group).
    public var conversationId: String
    /// The device that wrote it.
    public var sender: MessageSender
    /// The server's position of the message in its conversation; `nil` while it is being sent.
    public var serverSeq: Int64?
    /// The text.
    public var body: String
    /// The attachment's pointer (server id, key, digest, size, type): download it with
    /// `MessengerClient.download(_:)`. Stored as its JSON.
    public var attachment: AttachmentPointer?
    /// Where an outgoing message is; incoming messages are `delivered` until read, then `read`.
    public var state: MessageState
    /// When the sender wrote it, in milliseconds since 1970 (the sender's clock: shown, never
    /// used for ordering).
    public var sentAt: Int64
    /// When this device stored it, in milliseconds since 1970; `nil` for its own messages.
    public var receivedAt: Int64?

    /// `account/clientId`: unique within a conversation.
    public var id: String { sender.account + "/" + clientId }

    /// Creates a message.
    public init(
        clientId: String, conversationId: String, sender: MessageSender, serverSeq: Int64? = nil, body: String,
        attachment: AttachmentPointer? = nil, state: MessageState, sentAt: Int64, receivedAt: Int64? = nil
    ) {
        self.clientId = clientId
        self.conversationId = conversationId
        self.sender = sender
        self.serverSeq = serverSeq
        self.body = body
        self.attachment = attachment
        self.state = state
        self.sentAt = sentAt
        self.receivedAt = receivedAt
    }
}
