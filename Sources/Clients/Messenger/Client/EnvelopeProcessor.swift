import CourierCore
import Foundation
import SignalProtocol

/// Decrypts one envelope and stores what it carries, atomically and once.
///
/// Under the cross-process ratchet lock, in one transaction: if this (sender, device, client
/// message id) was processed before, nothing happens — the ratchet is not touched; otherwise the
/// envelope is decrypted, its content applied (message stored, receipt applied, sender key
/// stored, group updated) and the envelope recorded as processed, and only then do the new
/// session state and the consumed one-time prekey commit, together with all of it. The caller
/// acknowledges the envelope after this returns.
struct EnvelopeProcessor: Sendable {
    let storage: MessengerStorage
    let clock: any Clock
    /// This device, whose own sender keys are rotated when a group loses a member.
    let ownAddress: ProtocolAddress

    func process(_ envelope: IncomingEnvelope) throws -> IncomingEvent {
        do {
            return try storage.transaction { stores, senderKeys, db in
                try decrypt(envelope, stores: stores, senderKeys: senderKeys, db: db)
            }
        } catch let error as SignalProtocolError where error.code == .untrustedIdentity {
            // Not recorded as processed: the caller shows the key to `ContactVerification`, and
            // the envelope stays on the server until the change is accepted.
            return .identityChanged(account: envelope.sourceAccount)
        } catch let error as SignalProtocolError where error.code != .storageFailure {
            return try storage.transaction { _, _, db in
                try recordUndecryptable(envelope, reason: error.code.description, db: db)
            }
        } catch let error as MessengerClientError where error.code == .malformedEnvelope {
            return try storage.transaction { _, _, db in
                try recordUndecryptable(envelope, reason: "malformed content", db: db)
            }
        }
    }

    /// Processes `envelopes` as `process(_:)` does each, in order, in one transaction (one
    /// commit): each runs in its own savepoint, so an envelope that does not decrypt is rolled
    /// back alone and recorded as undecryptable while the others commit.
    /// - Returns: one event per envelope, in order; valid only once this returns (committed).
    /// - Throws: a storage failure, after which nothing of the batch is committed.
    func process(batch envelopes: [IncomingEnvelope]) throws -> [IncomingEvent] {
        try storage.transaction { stores, senderKeys, db in
            try envelopes.map { envelope throws -> IncomingEvent in
                do {
                    return try db.savepoint { db in
                        try decrypt(envelope, stores: stores, senderKeys: senderKeys, db: db)
                    }
                } catch let error as SignalProtocolError where error.code == .untrustedIdentity {
                    return .identityChanged(account: envelope.sourceAccount)
                } catch let error as SignalProtocolError where error.code != .storageFailure {
                    return try recordUndecryptable(envelope, reason: error.code.description, db: db)
                } catch let error as MessengerClientError where error.code == .malformedEnvelope {
                    return try recordUndecryptable(envelope, reason: "malformed content", db: db)
                }
            }
        }
    }

    /// Decrypts `envelope` and applies its content inside the caller's transaction, unless it was
    /// processed before (`.duplicate`, the ratchet untouched).
    private func decrypt(
        _ envelope: IncomingEnvelope, stores: SignalStores, senderKeys: any SenderKeyStore, db: Database
    ) throws -> IncomingEvent {
        let address = ProtocolAddress(name: envelope.sourceAccount, deviceId: envelope.sourceDevice)
        if try isProcessed(envelope, db: db) { return .duplicate }
        let event: IncomingEvent
        switch envelope.type {
        case Int(CiphertextMessage.whisperType), Int(CiphertextMessage.preKeyType):
            let message = try CiphertextMessage(type: UInt8(envelope.type), serialized: envelope.content)
            event = try SessionCipher(stores: stores, remoteAddress: address).decrypt(message) {
                try apply($0, from: envelope, senderKeys: senderKeys, db: db)
            }
            // The session the sender started (or one this device started) is the one
            // to answer in: the sender's device joins the roster with it.
            try DeviceRoster.learn(account: envelope.sourceAccount, device: envelope.sourceDevice, db: db)
        case IncomingEnvelope.senderKeyType:
            let group = try groupId(of: envelope.conversationId)
            let message = try SenderKeyMessage(serialized: envelope.content)
            event = try GroupCipher(store: senderKeys).decrypt(
                message, from: SenderKeyName(groupId: group, sender: address)
            ) { try apply($0, from: envelope, senderKeys: senderKeys, db: db) }
        default:
            throw SignalProtocolError(.invalidMessage, "unknown envelope type \(envelope.type)")
        }
        try markProcessed(envelope, outcome: "ok", db: db)
        return event
    }

    private func apply(
        _ plaintext: [UInt8], from envelope: IncomingEnvelope, senderKeys: any SenderKeyStore, db: Database
    ) throws -> IncomingEvent {
        let sender = envelope.sourceAccount
        let content = try MessageContent(decoding: plaintext)
        if content.isControl {
            // A control message uses a seq of the conversation too; noted so it is not reported as a gap.
            try MessageStore.recordControlSequence(
                conversationId: envelope.conversationId, serverSeq: envelope.serverSeq, in: db)
        }
        switch content {
        case .text(let body, let attachment, let sentAt, _):
            let pointer: AttachmentPointer?
            do {
                pointer = try attachment.map { bytes throws(AttachmentError) in try AttachmentPointer(encoded: bytes) }
            } catch {
                throw MessengerClientError(.malformedEnvelope, "the attachment pointer is malformed: \(error.message)")
            }
            let message = Message(
                clientId: envelope.clientMessageId, conversationId: envelope.conversationId,
                sender: MessageSender(account: sender, device: Int(envelope.sourceDevice)),
                serverSeq: envelope.serverSeq, body: body, attachment: pointer,
                state: sender == ownAddress.name ? .sent : .delivered, sentAt: sentAt,
                receivedAt: sender == ownAddress.name ? nil : clock.nowMilliseconds)
            // A copy of what another device of this account sent is one of its own, already sent.
            let isNew =
                sender == ownAddress.name
                ? try MessageStore.insertOutgoing(message, in: db) : try MessageStore.insertIncoming(message, in: db)
            return isNew ? .message(message) : .duplicate
        case .receipt(let kind, let conversation, let upToSeq):
            // Another device of this account acknowledging what it received says nothing about
            // what this account sent; its read receipt means the user read them there.
            if sender == ownAddress.name {
                if kind == .read {
                    try MessageStore.markReadOnOtherDevice(conversationId: conversation, upToSeq: upToSeq, in: db)
                }
            } else {
                try MessageStore.applyReceipt(
                    kind: kind, conversationId: conversation,
                    reader: MessageSender(account: sender, device: Int(envelope.sourceDevice)), upToSeq: upToSeq,
                    in: db)
            }
            return .receipt(kind, conversation: conversation, upToSeq: upToSeq, reader: sender)
        case .typing(let started, let conversation):
            return .typing(account: sender, conversation: conversation, started: started)
        case .groupUpdate(let group, let mode, let members):
            let before = try GroupTable.load(group: group, db: db)?.members ?? []
            try GroupTable.save(group: group, mode: mode, members: members, db: db)
            if mode == .senderKeys && before.contains(where: { !members.contains($0) }) {
                // Someone left: a new generation of this device's key, shared only with those who stay.
                _ = try GroupCipher(store: senderKeys).rotate(for: SenderKeyName(groupId: group, sender: ownAddress))
                try GroupTable.clearShares(group: group, db: db)
            }
            return .groupUpdated(group: group, members: members)
        case .senderKey(let group, let distribution):
            let message = try SenderKeyDistributionMessage(serialized: distribution)
            let name = SenderKeyName(
                groupId: group, sender: ProtocolAddress(name: sender, deviceId: envelope.sourceDevice))
            try GroupCipher(store: senderKeys).process(message, from: name)
            return .senderKeyReceived(group: group, from: sender)
        case .unknown(let kind):
            return .unsupported(kind: kind)
        }
    }

    private func groupId(of conversation: String) throws -> String {
        guard conversation.hasPrefix(GroupTable.conversationPrefix) else {
            throw SignalProtocolError(.invalidMessage, "a sender key message outside a group conversation")
        }
        return String(conversation.dropFirst(GroupTable.conversationPrefix.count))
    }

    private func isProcessed(_ envelope: IncomingEnvelope, db: Database) throws -> Bool {
        try !db.query(
            """
            SELECT 1 FROM messenger_processed_envelopes
            WHERE source_account = ? AND source_device = ? AND client_message_id = ?
            """, key(envelope)
        ) { $0.int(0) }.isEmpty
    }

    private func markProcessed(_ envelope: IncomingEnvelope, outcome: String, db: Database) throws {
        try db.run(
            """
            INSERT OR IGNORE INTO messenger_processed_envelopes
                (source_account, source_device, client_message_id, processed_at, outcome) VALUES (?, ?, ?, ?, ?)
            """, key(envelope) + [.integer(clock.nowMilliseconds), .text(outcome)])
    }

    private func key(_ envelope: IncomingEnvelope) -> [SQLValue] {
        [.text(envelope.sourceAccount), .integer(Int64(envelope.sourceDevice)), .text(envelope.clientMessageId)]
    }

    /// Records the envelope as processed without touching the ratchet, so a poison envelope is
    /// acknowledged once and never retried.
    private func recordUndecryptable(_ envelope: IncomingEnvelope, reason: String, db: Database) throws
        -> IncomingEvent
    {
        if try isProcessed(envelope, db: db) { return .duplicate }
        try markProcessed(envelope, outcome: "undecryptable: \(reason)", db: db)
        return .undecryptable(from: envelope.sourceAccount, reason: reason)
    }
}
