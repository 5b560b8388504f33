/// The first message(s) of a session from its initiator: `version || protobuf`, carrying what
/// the responder needs to run X3DH and a `SignalMessage`.
public struct PreKeySignalMessage: Sendable {
    /// Protocol version from the high nibble of the first byte.
    public let messageVersion: UInt8
    /// The sender's registration id.
    public let registrationId: UInt32
    /// The recipient's one-time prekey that was used, if any.
    public let preKeyId: UInt32?
    /// The recipient's signed prekey that was used.
    public let signedPreKeyId: UInt32
    /// The sender's ephemeral X3DH base key.
    public let baseKey: PublicKey
    /// The sender's identity key.
    public let identityKey: IdentityKey
    /// The embedded ratchet message.
    public let message: SignalMessage
    /// The bytes exactly as sent or received.
    public let serialized: [UInt8]

    private static let schema: ProtobufFields.Schema = [
        1: .varint, 2: .lengthDelimited, 3: .lengthDelimited, 4: .lengthDelimited, 5: .varint, 6: .varint,
    ]

    /// Parses a received message.
    /// - Throws: `.invalidMessage`, `.invalidProtobuf`, `.invalidKey`, `.legacyVersion`, `.unknownVersion`.
    public init(serialized: [UInt8]) throws {
        let (version, fields) = try WireFormat.parse(serialized, schema: Self.schema, name: "PreKeySignalMessage")
        guard let signedPreKeyId = fields.uint32(6), let baseKey = fields.bytes(2), let identityKey = fields.bytes(3),
            let message = fields.bytes(4)
        else { throw WireFormat.missingField("PreKeySignalMessage") }
        messageVersion = version
        registrationId = fields.uint32(5) ?? 0
        preKeyId = fields.uint32(1)
        self.signedPreKeyId = signedPreKeyId
        self.baseKey = try PublicKey(serialized: baseKey)
        self.identityKey = try PublicKey(serialized: identityKey)
        self.message = try SignalMessage(serialized: message)
        guard self.message.messageVersion == messageVersion else {
            throw SignalProtocolError(.invalidMessage, "inner message version differs from outer")
        }
        self.serialized = serialized
    }

    init(
        version: UInt8, registrationId: UInt32, preKeyId: UInt32?, signedPreKeyId: UInt32, baseKey: PublicKey,
        identityKey: IdentityKey, message: SignalMessage
    ) {
        messageVersion = version
        self.registrationId = registrationId
        self.preKeyId = preKeyId
        self.signedPreKeyId = signedPreKeyId
        self.baseKey = baseKey
        self.identityKey = identityKey
        self.message = message
        serialized = WireFormat.serialize(version: version) { writer in
            if let preKeyId { writer.writeUInt32(1, preKeyId) }
            writer.writeBytes(2, baseKey.serialized)
            writer.writeBytes(3, identityKey.serialized)
            writer.writeBytes(4, message.serialized)
            writer.writeUInt32(5, registrationId)
            writer.writeUInt32(6, signedPreKeyId)
        }
    }
}
