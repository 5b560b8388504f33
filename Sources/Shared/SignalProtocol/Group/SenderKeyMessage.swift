/// A group message: `version || protobuf{id, iteration, ciphertext} || 64-byte XEdDSA signature`
/// (libsignal type 4).
public struct SenderKeyMessage: Sendable {
    static let signatureLength = 64
    /// The sender key generation id.
    public let keyId: UInt32
    /// The chain position.
    public let iteration: UInt32
    /// AES-256-CBC ciphertext.
    public let ciphertext: [UInt8]
    /// The wire bytes.
    public let serialized: [UInt8]

    init(keyId: UInt32, iteration: UInt32, ciphertext: [UInt8], signingKey: PrivateKey) throws {
        var writer = ProtobufWriter()
        writer.writeUInt32(1, keyId)
        writer.writeUInt32(2, iteration)
        writer.writeBytes(3, ciphertext)
        let body = [CiphertextVersion.byte] + writer.bytes
        self.keyId = keyId
        self.iteration = iteration
        self.ciphertext = ciphertext
        serialized = body + (try signingKey.sign(body))
    }

    /// Parses received bytes without checking the signature.
    public init(serialized: [UInt8]) throws {
        guard serialized.count > 1 + Self.signatureLength else {
            throw SignalProtocolError(.invalidMessage, "sender key message too short")
        }
        _ = try CiphertextVersion.check(serialized[0])
        var reader = ProtobufReader(serialized[1..<(serialized.count - Self.signatureLength)])
        var keyId: UInt32?
        var iteration: UInt32?
        var ciphertext: [UInt8]?
        while let (field, wireType) = try reader.readTag() {
            switch field {
            case 1:
                try reader.expect(.varint, got: wireType)
                keyId = try reader.readUInt32()
            case 2:
                try reader.expect(.varint, got: wireType)
                iteration = try reader.readUInt32()
            case 3:
                try reader.expect(.lengthDelimited, got: wireType)
                ciphertext = try reader.readLengthDelimited()
            default:
                try reader.skip(wireType)
            }
        }
        guard let keyId, let iteration, let ciphertext else {
            throw SignalProtocolError(.invalidMessage, "sender key message lacks a required field")
        }
        self.keyId = keyId
        self.iteration = iteration
        self.ciphertext = ciphertext
        self.serialized = serialized
    }

    func verifySignature(_ key: PublicKey) -> Bool {
        let split = serialized.count - Self.signatureLength
        return key.verifySignature(Array(serialized[split...]), for: Array(serialized[..<split]))
    }
}
