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

    /// Parses a received message.
    /// - Throws: `.invalidMessage`, `.invalidProtobuf`, `.invalidKey`, `.legacyVersion`, `.unknownVersion`.
    public init(serialized: [UInt8]) throws {
        guard serialized.count > 1 else { throw SignalProtocolError(.invalidMessage, "PreKeySignalMessage too short") }
        messageVersion = try CiphertextVersion.check(serialized[0])
        var reader = ProtobufReader(serialized[1...])
        var registrationId: UInt32 = 0
        var preKeyId: UInt32?
        var signedPreKeyId: UInt32?
        var baseKey: [UInt8]?
        var identityKey: [UInt8]?
        var message: [UInt8]?
        while let (field, wireType) = try reader.readTag() {
            switch field {
            case 5:
                try reader.expect(.varint, got: wireType)
                registrationId = try reader.readUInt32()
            case 1:
                try reader.expect(.varint, got: wireType)
                preKeyId = try reader.readUInt32()
            case 6:
                try reader.expect(.varint, got: wireType)
                signedPreKeyId = try reader.readUInt32()
            case 2:
                try reader.expect(.lengthDelimited, got: wireType)
                baseKey = try reader.readLengthDelimited()
            case 3:
                try reader.expect(.lengthDelimited, got: wireType)
                identityKey = try reader.readLengthDelimited()
            case 4:
                try reader.expect(.lengthDelimited, got: wireType)
                message = try reader.readLengthDelimited()
            default:
                try reader.skip(wireType)
            }
        }
        guard let signedPreKeyId, let baseKey, let identityKey, let message else {
            throw SignalProtocolError(.invalidMessage, "PreKeySignalMessage lacks a required field")
        }
        self.registrationId = registrationId
        self.preKeyId = preKeyId
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
        var writer = ProtobufWriter()
        if let preKeyId { writer.writeUInt32(1, preKeyId) }
        writer.writeBytes(2, baseKey.serialized)
        writer.writeBytes(3, identityKey.serialized)
        writer.writeBytes(4, message.serialized)
        writer.writeUInt32(5, registrationId)
        writer.writeUInt32(6, signedPreKeyId)
        messageVersion = version
        self.registrationId = registrationId
        self.preKeyId = preKeyId
        self.signedPreKeyId = signedPreKeyId
        self.baseKey = baseKey
        self.identityKey = identityKey
        self.message = message
        serialized = [version << 4 | CiphertextVersion.current] + writer.bytes
    }
}
