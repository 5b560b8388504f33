import CourierCore
import CourierHTTPClient
import SignalProtocol

/// An envelope as the server delivers it (socket body or catch-up entry). Everything but
/// `content` is routing metadata the server knows anyway.
struct IncomingEnvelope: Sendable {
    var type: Int
    var sourceAccount: String
    var sourceDevice: UInt32
    var clientMessageId: String
    var conversationId: String
    var serverSeq: Int64
    var serverTimestamp: Int64
    var content: [UInt8]

    /// The identity key a session-opening message (`PreKeySignalMessage`) claims; nil for others.
    var sessionOpeningIdentityKey: IdentityKey? {
        guard type == Int(CiphertextMessage.preKeyType) else { return nil }
        return try? PreKeySignalMessage(serialized: content).identityKey
    }

    /// The envelope type of a sender-key group message (libsignal's `SenderKeyMessage`).
    static let senderKeyType = 4

    /// Parses the server's JSON.
    /// - Throws: `.malformedEnvelope` when a field is missing or of the wrong kind.
    init(json: JSONValue) throws {
        guard let type = json["type"]?.intValue, let source = json["sourceAccount"]?.stringValue,
            let device = json["sourceDevice"]?.intValue.flatMap({ UInt32(exactly: $0) }),
            let clientMessageId = json["clientMessageId"]?.stringValue,
            let conversationId = json["conversationId"]?.stringValue, let serverSeq = json["serverSeq"]?.intValue,
            let content = json["content"]?.stringValue.flatMap(Base64.decode)
        else { throw MessengerClientError(.malformedEnvelope, "an envelope lacks a field or has a wrong one") }
        self.type = Int(type)
        sourceAccount = source
        sourceDevice = device
        self.clientMessageId = clientMessageId
        self.conversationId = conversationId
        self.serverSeq = serverSeq
        serverTimestamp = json["serverTimestamp"]?.intValue ?? 0
        self.content = content
    }
}
