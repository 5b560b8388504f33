import CourierCore
import Foundation
import SignalProtocol

extension MessengerClient {
    /// Sends a text to `account`: one envelope per device of theirs and one per other device of
    /// this account, all with one client message id.
    /// - Returns: the stored message, `sent` with its `serverSeq`.
    /// - Throws: `.identityChanged` until a changed key of `account` is accepted; `.server`,
    ///   `.transport` (the message then stays `sending` in the store).
    @discardableResult
    public func send(text: String, to account: String) async throws -> Message {
        try await send(text: text, attachment: nil, to: account)
    }

    /// Sends a text, and an encoded attachment pointer when there is one, to `account`.
    func send(text: String, attachment: [UInt8]?, to account: String) async throws -> Message {
        let conversation = Self.conversationId(credentials.accountId, account)
        let now = clock.nowMilliseconds
        let content = MessageContent.text(body: text, attachment: attachment, sentAt: now, group: nil)
        return try await sendMessage(content, text: text, attachment: attachment, conversation: conversation) {
            [account]
        }
    }

    /// This device's new outgoing message, `sending`, stored in `db` (the caller's transaction).
    func storeOutgoing(text: String, attachment: [UInt8]?, conversation: String, sentAt: Int64, in db: Database)
        throws -> Message
    {
        let message = Message(
            clientId: Identifier.uuid(), conversationId: conversation,
            sender: MessageSender(account: credentials.accountId, device: Int(credentials.deviceId)), body: text,
            attachment: attachment.map { Data($0) }, state: .sending, sentAt: sentAt)
        try MessageStore.insertOutgoing(message, in: db)
        return message
    }

    /// Records the server's sequence number of a sent message: `sending` → `sent`.
    func markSent(_ message: inout Message, serverSeq: Int64?) throws {
        guard let serverSeq else { return }
        let clientId = message.clientId
        try storage.transaction { _, _, db in
            _ = try MessageStore.markSent(clientId: clientId, serverSeq: serverSeq, in: db)
        }
        message.serverSeq = serverSeq
        message.state = .sent
    }

    /// Stores the outgoing message as `sending`, fans it out to `accounts` and this account's
    /// other devices, and marks it `sent` with the server's sequence number.
    func sendMessage(
        _ content: MessageContent, text: String, attachment: [UInt8]?, conversation: String,
        accounts: () throws -> [String]
    ) async throws -> Message {
        try await learnOwnDevicesIfNone()
        let now = clock.nowMilliseconds
        var message = try storage.transaction { _, _, db in
            try storeOutgoing(text: text, attachment: attachment, conversation: conversation, sentAt: now, in: db)
        }
        var serverSeq: Int64?
        for account in try accounts() {
            let seq = try await sesame.send(
                to: account, conversation: conversation, clientMessageId: message.clientId, timestamp: now,
                seal: SesameSender.pairwise(content.encoded))
            serverSeq = serverSeq ?? seq
        }
        let ownSeq = try await sesame.send(
            to: credentials.accountId, conversation: conversation, clientMessageId: message.clientId, timestamp: now,
            seal: SesameSender.pairwise(content.encoded))
        try markSent(&message, serverSeq: serverSeq ?? ownSeq)
        return message
    }

    /// Tells `account` that the user started or stopped typing (ephemeral: not stored anywhere).
    /// - Throws: `MessengerClientError`.
    public func sendTyping(started: Bool, to account: String) async throws {
        let conversation = Self.conversationId(credentials.accountId, account)
        try await sendControl(.typing(started: started, conversation: conversation), to: account)
    }

    /// A control message to one account (and this account's other devices), not stored locally;
    /// the `serverSeq` it used is noted so the conversation shows no gap there.
    func sendControl(
        _ content: MessageContent, to account: String, conversation: String? = nil, includeOwnDevices: Bool = true
    ) async throws {
        try await learnOwnDevicesIfNone()
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
