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

    private static let schema: ProtobufFields.Schema = [
        1: .lengthDelimited, 2: .varint, 3: .varint, 4: .lengthDelimited,
    ]

    /// Parses a received message without checking its MAC.
    /// - Throws: `.invalidMessage`, `.invalidProtobuf`, `.invalidKey`, `.legacyVersion`, `.unknownVersion`.
    public init(serialized: [UInt8]) throws {
        let (version, fields) = try WireFormat.parse(
            serialized, trailerLength: Self.macLength, schema: Self.schema, name: "SignalMessage")
        guard let ratchetKey = fields.bytes(1), let counter = fields.uint32(2), let ciphertext = fields.bytes(4) else {
            throw WireFormat.missingField("SignalMessage")
        }
        messageVersion = version
        senderRatchetKey = try PublicKey(serialized: ratchetKey)
        self.counter = counter
        previousCounter = fields.uint32(3) ?? 0
        self.ciphertext = ciphertext
        self.serialized = serialized
    }

    /// Builds and MACs a message.
    init(
        version: UInt8, macKey: SecretBytes, senderRatchetKey: PublicKey, counter: UInt32, previousCounter: UInt32,
        ciphertext: [UInt8], senderIdentity: IdentityKey, receiverIdentity: IdentityKey
    ) {
        var bytes = WireFormat.serialize(version: version) { writer in
            writer.writeBytes(1, senderRatchetKey.serialized)
            writer.writeUInt32(2, counter)
            writer.writeUInt32(3, previousCounter)
            writer.writeBytes(4, ciphertext)
        }
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
        let (covered, mac) = WireFormat.split(serialized, trailerLength: Self.macLength)
        let expected = Self.mac(
            macKey: macKey, senderIdentity: senderIdentity, receiverIdentity: receiverIdentity, body: covered)
        return Sodium.constantTimeEqual(expected, Array(mac))
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
