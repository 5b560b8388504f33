/// Hands a sender's chain key and signing key to a group member, over a pairwise session:
/// `version || protobuf{id, iteration, chainKey, signingKey}` (libsignal type 5).
public struct SenderKeyDistributionMessage: Sendable {
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
        var writer = ProtobufWriter()
        writer.writeUInt32(1, keyId)
        writer.writeUInt32(2, iteration)
        chainKey.withUnsafeBytes { writer.writeBytes(3, $0) }
        writer.writeBytes(4, signingKey.serialized)
        self.keyId = keyId
        self.iteration = iteration
        self.chainKey = chainKey
        self.signingKey = signingKey
        serialized = [CiphertextVersion.byte] + writer.bytes
    }

    /// Parses received bytes.
    /// - Throws: `.invalidMessage`, `.invalidProtobuf`, `.invalidKey`, version errors.
    public init(serialized: [UInt8]) throws {
        guard serialized.count > 1 else { throw SignalProtocolError(.invalidMessage, "distribution message too short") }
        _ = try CiphertextVersion.check(serialized[0])
        var reader = ProtobufReader(serialized[1...])
        var keyId: UInt32?
        var iteration: UInt32?
        var chainKey: [UInt8]?
        var signingKey: [UInt8]?
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
                chainKey = try reader.readLengthDelimited()
            case 4:
                try reader.expect(.lengthDelimited, got: wireType)
                signingKey = try reader.readLengthDelimited()
            default:
                try reader.skip(wireType)
            }
        }
        guard let keyId, let iteration, var chainKey, let signingKey, chainKey.count == 32 else {
            throw SignalProtocolError(.invalidMessage, "distribution message lacks a required field")
        }
        self.keyId = keyId
        self.iteration = iteration
        self.chainKey = SecretBytes(chainKey)
        chainKey.withUnsafeMutableBytes { Sodium.zero($0) }
        self.signingKey = try PublicKey(serialized: signingKey)
        self.serialized = serialized
    }
}
