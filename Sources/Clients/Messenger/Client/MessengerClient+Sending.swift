import CourierCore
import Foundation
import Realtime
import SignalProtocol

extension MessengerClient {
    /// Sends a text to `account`: one envelope per device of theirs and one per other device of
    /// this account, all with one client message id.
    /// - Returns: the stored message, `sent` with its `serverSeq`.
    /// - Throws: `.identityChanged` until a changed key of `account` is accepted (the message is
    ///   then `failed`); `.server`, `.transport`: the message stays `sending` and queued, and
    ///   `sync()` (or `retryPendingSends()`) sends it again after a backoff with the same client
    ///   id, so it is delivered once; after `maximumSendAttempts` it is `failed`.
    @discardableResult
    public func send(text: String, to account: String) async throws -> Message {
        try await send(text: text, attachment: nil, to: account)
    }

    /// Sends a text, and an attachment's pointer when there is one, to `account`.
    func send(text: String, attachment: AttachmentPointer?, to account: String) async throws -> Message {
        let conversation = Self.conversationId(credentials.accountId, account)
        let now = clock.nowMilliseconds
        let content = MessageContent.text(
            body: text, attachment: try attachment.map { pointer throws(AttachmentError) in try pointer.encoded() },
            sentAt: now, group: nil)
        return try await sendMessage(content, text: text, attachment: attachment, conversation: conversation) {
            [account]
        }
    }

    /// This device's new outgoing message, `sending`, stored in `db` (the caller's transaction)
    /// and queued for sending (`SendQueue`), so it is retried if this attempt fails.
    func storeOutgoing(
        text: String, attachment: AttachmentPointer?, conversation: String, sentAt: Int64, in db: Database
    ) throws -> Message {
        let message = Message(
            clientId: Identifier.uuid(), conversationId: conversation,
            sender: MessageSender(account: credentials.accountId, device: Int(credentials.deviceId)), body: text,
            attachment: attachment, state: .sending, sentAt: sentAt)
        try MessageStore.insertOutgoing(message, in: db)
        try SendQueue.enqueue(clientId: message.clientId, conversationId: conversation, now: sentAt, db: db)
        return message
    }

    /// Records the server's sequence number of a sent message (`sending` → `sent`) and takes it
    /// off the send queue.
    func markSent(_ message: inout Message, serverSeq: Int64?) throws {
        let clientId = message.clientId
        try storage.transaction(deferringSync: true) { _, _, db in
            if let serverSeq { _ = try MessageStore.markSent(clientId: clientId, serverSeq: serverSeq, in: db) }
            try SendQueue.remove(clientId: clientId, db: db)
        }
        guard let serverSeq else { return }
        message.serverSeq = serverSeq
        message.state = .sent
    }

    /// Stores the outgoing message as `sending`, fans it out to `accounts` and this account's
    /// other devices, and marks it `sent` with the server's sequence number.
    func sendMessage(
        _ content: MessageContent, text: String, attachment: AttachmentPointer?, conversation: String,
        accounts: () throws -> [String]
    ) async throws -> Message {
        try? await learnOwnDevicesIfNone()
        let now = clock.nowMilliseconds
        let message = try storage.transaction(deferringSync: true) { _, _, db in
            try storeOutgoing(text: text, attachment: attachment, conversation: conversation, sentAt: now, in: db)
        }
        let recipients = try accounts()
        return try await attempt(message) { client in
            try await client.fanOut(content, of: message, to: recipients)
        }
    }

    /// Seals `content` for every device of `accounts` and this account's other devices, all
    /// with the message's client id; returns the server's sequence number. This account's own
    /// copy goes out beside the others, not after them, so a send waits for one round trip.
    func fanOut(_ content: MessageContent, of message: Message, to accounts: [String]) async throws -> Int64? {
        let own = credentials.accountId
        return try await sesame.send(
            toAll: accounts.contains(own) ? accounts : accounts + [own], conversation: message.conversationId,
            clientMessageId: message.clientId, timestamp: message.sentAt, seal: SesameSender.pairwise(content.encoded))
    }

    /// Tells `account` that the user started or stopped typing (ephemeral: not stored anywhere).
    /// - Throws: `MessengerClientError`.
    public func sendTyping(started: Bool, to account: String) async throws {
        let conversation = Self.conversationId(credentials.accountId, account)
        try await sendControl(.typing(started: started, conversation: conversation), to: account)
    }

    /// Sends what Realtime's `TypingDebouncer` decided (one `started`, refreshed, then `stopped`).
    /// - Throws: `MessengerClientError`.
    public func send(_ signal: TypingSignal, to account: String) async throws {
        try await sendTyping(started: signal == .started, to: account)
    }

    /// A control message to one account (and this account's other devices), not stored locally;
    /// the `serverSeq` it used is noted so the conversation shows no gap there.
    func sendControl(
        _ content: MessageContent, to account: String, conversation: String? = nil, includeOwnDevices: Bool = true
    ) async throws {
        try? await learnOwnDevicesIfNone()
        let clientId = Identifier.uuid()
        let conversation = conversation ?? Self.conversationId(credentials.accountId, account)
        var seq = try await sesame.send(
            to: account, conversation: conversation, clientMessageId: clientId, timestamp: clock.nowMilliseconds,
            seal: SesameSender.pairwise(content.encoded))
        if includeOwnDevices && account != credentials.accountId {
            let own = try await sesame.send(
                to: credentials.accountId, conversation: conversation, clientMessageId: clientId,
                timestamp: clock.nowMilliseconds, seal: SesameSender.pairwise(content.encoded))
            seq = seq ?? own
        }
        try recordControlSequence(seq, in: conversation)
    }

    /// Notes a `serverSeq` this device's control message used.
    func recordControlSequence(_ seq: Int64?, in conversation: String) throws {
        guard let seq else { return }
        try storage.transaction { _, _, db in
            try MessageStore.recordControlSequence(conversationId: conversation, serverSeq: seq, in: db)
        }
    }
}
