/// A Double Ratchet message: `version || protobuf || 8-byte truncated HMAC-SHA256`.
public struct SignalMessage: Sendable {
    /// Length of the truncated MAC.
    public static let macLength = 8

    /// Protocol version from the high nibble of the first byte.
    public let messageVersion: UInt8
    /// The sender's current ratchet public key.
    public let senderRatchetKey: PublicKey
    /// Index of this message in the sender's chain.
    public let counter: UInt32
    /// Length of the sender's previous sending chain, as libsignal reports it.
    public let previousCounter: UInt32
    /// AES-256-CBC ciphertext.
    public let ciphertext: [UInt8]
    /// The bytes exactly as sent or received; the MAC covers these.
    public let serialized: [UInt8]

    /// Parses a received message without checking its MAC.
    /// - Throws: `.invalidMessage`, `.invalidProtobuf`, `.invalidKey`, `.legacyVersion`, `.unknownVersion`.
    public init(serialized: [UInt8]) throws {
        guard serialized.count > 1 + Self.macLength else {
            throw SignalProtocolError(.invalidMessage, "SignalMessage too short")
        }
        messageVersion = try CiphertextVersion.check(serialized[0])
        var reader = ProtobufReader(serialized[1..<(serialized.count - Self.macLength)])
        var ratchetKey: [UInt8]?
        var counter: UInt32?
        var previousCounter: UInt32 = 0
        var ciphertext: [UInt8]?
        while let (field, wireType) = try reader.readTag() {
            switch field {
            case 1:
                try reader.expect(.lengthDelimited, got: wireType)
                ratchetKey = try reader.readLengthDelimited()
            case 2:
                try reader.expect(.varint, got: wireType)
                counter = try reader.readUInt32()
            case 3:
                try reader.expect(.varint, got: wireType)
                previousCounter = try reader.readUInt32()
            case 4:
                try reader.expect(.lengthDelimited, got: wireType)
                ciphertext = try reader.readLengthDelimited()
            default:
                try reader.skip(wireType)
            }
        }
        guard let ratchetKey, let counter, let ciphertext else {
            throw SignalProtocolError(.invalidMessage, "SignalMessage lacks a required field")
        }
        senderRatchetKey = try PublicKey(serialized: ratchetKey)
        self.counter = counter
        self.previousCounter = previousCounter
        self.ciphertext = ciphertext
        self.serialized = serialized
    }

    /// Builds and MACs a message.
    init(
        version: UInt8, macKey: SecretBytes, senderRatchetKey: PublicKey, counter: UInt32, previousCounter: UInt32,
        ciphertext: [UInt8], senderIdentity: IdentityKey, receiverIdentity: IdentityKey
    ) {
        var writer = ProtobufWriter()
        writer.writeBytes(1, senderRatchetKey.serialized)
        writer.writeUInt32(2, counter)
        writer.writeUInt32(3, previousCounter)
        writer.writeBytes(4, ciphertext)
        var bytes = [version << 4 | CiphertextVersion.current] + writer.bytes
        bytes += Self.mac(
            macKey: macKey, senderIdentity: senderIdentity, receiverIdentity: receiverIdentity, body: bytes[...])
        messageVersion = version
        self.senderRatchetKey = senderRatchetKey
        self.counter = counter
        self.previousCounter = previousCounter
        self.ciphertext = ciphertext
        serialized = bytes
    }

    /// Checks the MAC over the bytes as received, in constant time.
    func verifyMAC(senderIdentity: IdentityKey, receiverIdentity: IdentityKey, macKey: SecretBytes) -> Bool {
        let split = serialized.count - Self.macLength
        let expected = Self.mac(
            macKey: macKey, senderIdentity: senderIdentity, receiverIdentity: receiverIdentity,
            body: serialized[..<split])
        return Sodium.constantTimeEqual(expected, Array(serialized[split...]))
    }

    private static func mac(
        macKey: SecretBytes, senderIdentity: IdentityKey, receiverIdentity: IdentityKey, body: ArraySlice<UInt8>
    ) -> [UInt8] {
        let sender = senderIdentity.serialized
        let receiver = receiverIdentity.serialized
        let full = macKey.withUnsafeBytes { key in
            sender.withUnsafeBytes { s in
                receiver.withUnsafeBytes { r in
                    body.withUnsafeBytes { b in Sodium.hmacSHA256(key: key, [s, r, b]) }
                }
            }
        }
        return Array(full.prefix(macLength))
    }
}
