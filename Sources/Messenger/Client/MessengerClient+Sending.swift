import CourierCore
import Realtime
import SignalProtocol

extension MessengerClient {
    /// Sends a text (and optionally an encoded attachment pointer) to `account`: one envelope per
    /// device of theirs and one per other device of this account, all with one client message id.
    /// - Returns: the stored message, `sent` with its `serverSeq`.
    /// - Throws: `.identityChanged` until a changed key of `account` is accepted; `.server`,
    ///   `.transport` (the message then stays `sending` in the store).
    @discardableResult
    public func send(text: String, to account: String, attachment: [UInt8]? = nil) async throws -> StoredMessage {
        let conversation = Self.conversationId(credentials.accountId, account)
        let now = clock.nowMilliseconds
        let content = MessageContent.text(body: text, attachment: attachment, sentAt: now, group: nil)
        return try await sendMessage(content, text: text, attachment: attachment, conversation: conversation) {
            [account]
        }
    }

    /// Stores the outgoing message as `sending`, fans it out to `accounts` and this account's
    /// other devices, and marks it `sent` with the server's sequence number.
    /// - Parameter existing: a stored message still `sending`, sent again with its client id.
    func sendMessage(
        _ content: MessageContent, text: String, attachment: [UInt8]?, conversation: String,
        existing: StoredMessage? = nil, accounts: () throws -> [String]
    ) async throws -> StoredMessage {
        try? await learnOwnDevicesIfNone()
        var message = try existing ?? storeOutgoing(text: text, attachment: attachment, conversation: conversation)
        let (clientId, now) = (message.clientId, message.sentAt)
        let serverSeq = try await sesame.send(
            toAll: try accounts(), conversation: conversation, clientMessageId: clientId, timestamp: now,
            seal: SesameSender.pairwise(content.encoded))
        let ownSeq = try await sesame.send(
            to: credentials.accountId, conversation: conversation, clientMessageId: clientId, timestamp: now,
            seal: SesameSender.pairwise(content.encoded))
        if let seq = serverSeq ?? ownSeq {
            try storage.transaction { _, _, db in try storage.sink.markSent(clientId: clientId, serverSeq: seq, in: db)
            }
            message.serverSeq = seq
            message.state = "sent"
        }
        return message
    }

    /// Stores a new outgoing message as `sending`, before anything goes out.
    func storeOutgoing(text: String, attachment: [UInt8]?, conversation: String) throws -> StoredMessage {
        let now = clock.nowMilliseconds
        let message = StoredMessage(
            clientId: Identifier.uuid(), conversationId: conversation, senderAccount: credentials.accountId,
            senderDevice: credentials.deviceId, serverSeq: nil, body: text, attachment: attachment, state: "sending",
            sentAt: now, receivedAt: now)
        try storage.transaction { _, _, db in _ = try storage.sink.store(message, in: db) }
        return message
    }

    /// Sends again every message of this device still `sending` (its send failed or the process
    /// stopped mid-send), each with its original client message id, so the server stores each
    /// once however many times it is tried.
    /// - Returns: how many were sent now.
    /// - Throws: the first send's error; the messages after it stay `sending`.
    @discardableResult
    public func resendPending() async throws -> Int {
        let pending = try storage.read {
            try storage.sink.pendingOutgoing(from: credentials.accountId, device: credentials.deviceId, db: $0)
        }
        for message in pending {
            if message.conversationId.hasPrefix(GroupTable.conversationPrefix) {
                let group = String(message.conversationId.dropFirst(GroupTable.conversationPrefix.count))
                _ = try await send(text: message.body, toGroup: group, existing: message)
            } else {
                let parties = message.conversationId.dropFirst("dm:".count).split(separator: ":").map(String.init)
                let account = parties.first { $0 != credentials.accountId } ?? credentials.accountId
                let content = MessageContent.text(
                    body: message.body, attachment: message.attachment, sentAt: message.sentAt, group: nil)
                _ = try await sendMessage(
                    content, text: message.body, attachment: message.attachment, conversation: message.conversationId,
                    existing: message
                ) { [account] }
            }
        }
        return pending.count
    }

    /// Sends an encrypted receipt: everything up to `upToSeq` in `conversation` was delivered to
    /// or read on this device. Read receipts are not sent when the user turned them off.
    /// - Throws: `MessengerClientError`.
    public func sendReceipt(_ kind: ReceiptKind, conversation: String, upToSeq: Int64, to account: String)
        async throws
    {
        if kind == .read && !configuration.sendsReadReceipts { return }
        try await sendControl(.receipt(kind, conversation: conversation, upToSeq: upToSeq), to: account)
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

    /// A control message to one account (and this account's other devices), not stored locally.
    func sendControl(_ content: MessageContent, to account: String, includeOwnDevices: Bool = true) async throws {
        try? await learnOwnDevicesIfNone()
        let clientId = Identifier.uuid()
        let conversation = Self.conversationId(credentials.accountId, account)
        try await sesame.send(
            to: account, conversation: conversation, clientMessageId: clientId, timestamp: clock.nowMilliseconds,
            seal: SesameSender.pairwise(content.encoded))
        if includeOwnDevices && account != credentials.accountId {
            try await sesame.send(
                to: credentials.accountId, conversation: conversation, clientMessageId: clientId,
                timestamp: clock.nowMilliseconds, seal: SesameSender.pairwise(content.encoded))
        }
    }
}
