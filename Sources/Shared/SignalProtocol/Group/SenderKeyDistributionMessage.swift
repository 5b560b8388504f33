/// Hands a sender's chain key and signing key to a group member, over a pairwise session:
/// `version || protobuf{id, iteration, chainKey, signingKey}` (libsignal type 5).
public struct SenderKeyDistributionMessage: Sendable {
    private static let schema: ProtobufFields.Schema = [
        1: .varint, 2: .varint, 3: .lengthDelimited, 4: .lengthDelimited,
    ]
    private static let name = "distribution message"

    /// The sender key generation id.
    public let keyId: UInt32
    /// The chain position the key starts at.
    public let iteration: UInt32
    /// The chain key at `iteration`.
    public let chainKey: SecretBytes
    /// The key that signs this sender's group messages.
    public let signingKey: PublicKey
    /// The wire bytes.
    public let serialized: [UInt8]

    init(keyId: UInt32, iteration: UInt32, chainKey: SecretBytes, signingKey: PublicKey) {
        self.keyId = keyId
        self.iteration = iteration
        self.chainKey = chainKey
        self.signingKey = signingKey
        serialized = WireFormat.serialize(version: CiphertextVersion.current) { writer in
            writer.writeUInt32(1, keyId)
            writer.writeUInt32(2, iteration)
            writer.writeSecret(3, chainKey)
            writer.writeBytes(4, signingKey.serialized)
        }
    }

    /// Parses received bytes.
    /// - Throws: `.invalidMessage`, `.invalidProtobuf`, `.invalidKey`, version errors.
    public init(serialized: [UInt8]) throws {
        let (_, fields) = try WireFormat.parse(serialized, schema: Self.schema, name: Self.name)
        guard let keyId = fields.uint32(1), let iteration = fields.uint32(2), let chainKey = fields.secret(3),
            let signingKey = fields.bytes(4), chainKey.count == 32
        else { throw WireFormat.missingField(Self.name) }
        self.keyId = keyId
        self.iteration = iteration
        self.chainKey = chainKey
        self.signingKey = try PublicKey(serialized: signingKey)
        self.serialized = serialized
    }
}
