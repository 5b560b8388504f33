/// A group message: `version || protobuf{id, iteration, ciphertext} || 64-byte XEdDSA signature`
/// (libsignal type 4).
public struct SenderKeyMessage: Sendable {
    static let signatureLength = 64
    private static let schema: ProtobufFields.Schema = [1: .varint, 2: .varint, 3: .lengthDelimited]
    private static let name = "sender key message"

    /// The sender key generation id.
    public let keyId: UInt32
    /// The chain position.
    public let iteration: UInt32
    /// AES-256-CBC ciphertext.
    public let ciphertext: [UInt8]
    /// The wire bytes.
    public let serialized: [UInt8]

    init(keyId: UInt32, iteration: UInt32, ciphertext: [UInt8], signingKey: PrivateKey) throws {
        let body = WireFormat.serialize(version: CiphertextVersion.current) { writer in
            writer.writeUInt32(1, keyId)
            writer.writeUInt32(2, iteration)
            writer.writeBytes(3, ciphertext)
        }
        self.keyId = keyId
        self.iteration = iteration
        self.ciphertext = ciphertext
        serialized = body + (try signingKey.sign(body))
    }

    /// Parses received bytes without checking the signature.
    public init(serialized: [UInt8]) throws {
        let (_, fields) = try WireFormat.parse(
            serialized, trailerLength: Self.signatureLength, schema: Self.schema, name: Self.name)
        guard let keyId = fields.uint32(1), let iteration = fields.uint32(2), let ciphertext = fields.bytes(3) else {
            throw WireFormat.missingField(Self.name)
        }
        self.keyId = keyId
        self.iteration = iteration
        self.ciphertext = ciphertext
        self.serialized = serialized
    }

    func verifySignature(_ key: PublicKey) -> Bool {
        let (signed, signature) = WireFormat.split(serialized, trailerLength: Self.signatureLength)
        return key.verifySignature(Array(signature), for: Array(signed))
    }
}
