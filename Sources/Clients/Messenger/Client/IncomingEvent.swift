/// What processing one envelope produced.
public enum IncomingEvent: Sendable, Equatable {
    /// A conversation message, now stored.
    case message(Message)
    /// A receipt from `reader`, applied to this account's messages.
    case receipt(ReceiptKind, conversation: String, upToSeq: Int64, reader: String)
    /// Someone started or stopped typing (not stored).
    case typing(account: String, conversation: String, started: Bool)
    /// A group's membership changed.
    case groupUpdated(group: String, members: [String])
    /// A sender key for a group arrived and was stored.
    case senderKeyReceived(group: String, from: String)
    /// This envelope had been processed before: nothing changed (not even the ratchet).
    case duplicate
    /// The sender's identity key changed; the envelope is kept on the server until the app
    /// accepts the new key (`MessengerClient.acceptIdentityChange`).
    case identityChanged(account: String)
    /// The envelope could not be decrypted or read; it is recorded and acknowledged so that it
    /// does not block the mailbox.
    case undecryptable(from: String, reason: String)
    /// A content kind this version does not know; acknowledged.
    case unsupported(kind: String)

    /// Whether the envelope may be acknowledged (deleted from the server).
    var acknowledges: Bool {
        if case .identityChanged = self { return false }
        return true
    }
}
