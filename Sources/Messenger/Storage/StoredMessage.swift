/// A conversation message as the device stores it: received and decrypted, or sent by this account.
public struct StoredMessage: Sendable, Hashable {
    /// The sender's client message id (unique per sender device).
    public var clientId: String
    /// The conversation (`dm:<a>:<b>` for a pair, `group:<id>` for a group).
    public var conversationId: String
    /// The sending account.
    public var senderAccount: String
    /// The sending device.
    public var senderDevice: UInt32
    /// The conversation's order, from the server; nil while sending.
    public var serverSeq: Int64?
    /// The text.
    public var body: String
    /// An encoded attachment pointer, opaque here.
    public var attachment: [UInt8]?
    /// `sending`, `sent`, `delivered`, `read` or `received`.
    public var state: String
    /// The sender's clock at sending, in milliseconds.
    public var sentAt: Int64
    /// This device's clock at storing, in milliseconds.
    public var receivedAt: Int64

    /// Creates a message.
    public init(
        clientId: String, conversationId: String, senderAccount: String, senderDevice: UInt32, serverSeq: Int64?,
        body: String, attachment: [UInt8]?, state: String, sentAt: Int64, receivedAt: Int64
    ) {
        self.clientId = clientId
        self.conversationId = conversationId
        self.senderAccount = senderAccount
        self.senderDevice = senderDevice
        self.serverSeq = serverSeq
        self.body = body
        self.attachment = attachment
        self.state = state
        self.sentAt = sentAt
        self.receivedAt = receivedAt
    }
}
