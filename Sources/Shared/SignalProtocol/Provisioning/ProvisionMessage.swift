/// What a device of an account hands a device being linked, after Signal's `ProvisionMessage`:
/// the account's identity key pair, the account id and a one-use linking token. It travels only
/// sealed (`ProvisioningCipher`) and lives in zero-on-free storage while serialised.
public struct ProvisionMessage: Sendable {
    /// The account's identity key pair: the new device signs its prekeys with it.
    public let identity: IdentityKeyPair
    /// The account the new device joins.
    public let accountId: String
    /// The token the new device registers with (`PUT /v1/devices/link`).
    public let linkingToken: String

    private static let version: UInt32 = 1

    /// Creates a provision.
    public init(identity: IdentityKeyPair, accountId: String, linkingToken: String) {
        self.identity = identity
        self.accountId = accountId
        self.linkingToken = linkingToken
    }

    /// The protobuf form (public key 1, private key 2, account 3, token 4, version 9); it holds
    /// the private key.
    func serialized() -> SecretBytes {
        var writer = ProtobufWriter()
        writer.writeBytes(1, identity.identityKey.serialized)
        writer.writeSecret(2, identity.privateKey.secret)
        writer.writeBytes(3, Array(accountId.utf8))
        writer.writeBytes(4, Array(linkingToken.utf8))
        writer.writeUInt32(9, Self.version)
        return writer.takeSecret()
    }

    /// Reads the protobuf form.
    /// - Throws: `.unknownVersion`, `.invalidProtobuf` (a field missing), `.invalidKey` (the
    ///   public key does not belong to the private key).
    init(serialized: SecretBytes) throws {
        let schema: ProtobufFields.Schema = [
            1: .lengthDelimited, 2: .lengthDelimited, 3: .lengthDelimited, 4: .lengthDelimited, 9: .varint,
        ]
        let fields = try ProtobufFields(secret: serialized, schema: schema)
        guard fields.uint32(9) == Self.version else {
            throw SignalProtocolError(.unknownVersion, "a provision of an unknown version")
        }
        guard let account = fields.bytes(3).flatMap({ String(validating: $0, as: UTF8.self) }), !account.isEmpty,
            let token = fields.bytes(4).flatMap({ String(validating: $0, as: UTF8.self) }), !token.isEmpty
        else { throw SignalProtocolError(.invalidProtobuf, "a provision without its account or token") }
        let keyPair = try StorageFormat.keyPair(publicKey: fields.bytes(1), privateKey: fields.secret(2), "provision")
        self.init(identity: IdentityKeyPair(keyPair: keyPair), accountId: account, linkingToken: token)
    }
}
