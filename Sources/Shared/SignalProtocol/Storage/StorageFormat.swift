/// Shared rules for the persistence format of records (Courier's own protobuf schema, not
/// libsignal's): every top-level record starts with field 15 = format version.
enum StorageFormat {
    static let versionField: UInt32 = 15
    static let version: UInt32 = 1

    static func malformed(_ what: String) -> SignalProtocolError {
        SignalProtocolError(.invalidProtobuf, "stored \(what) is malformed")
    }

    /// Reads a top-level record: its fields by `schema`, and the format version, checked.
    /// - Throws: `.invalidProtobuf`, `.unknownVersion`.
    static func fields(_ serialized: SecretBytes, _ schema: ProtobufFields.Schema, _ what: String) throws
        -> ProtobufFields
    {
        let fields = try nested(serialized, schema.merging([versionField: .varint]) { declared, _ in declared })
        guard fields.uint32(versionField) == version else {
            throw SignalProtocolError(.unknownVersion, "stored \(what) has unknown format version")
        }
        return fields
    }

    /// Reads a nested message of a record. A field of another wire type than declared is skipped,
    /// as an unknown one is.
    static func nested(_ bytes: SecretBytes, _ schema: ProtobufFields.Schema) throws -> ProtobufFields {
        try ProtobufFields(secret: bytes, schema: schema, skippingMismatches: true)
    }

    /// A record in the storage format: the format version, then what `body` writes.
    static func record(_ body: (inout ProtobufWriter) -> Void) -> SecretBytes {
        var writer = ProtobufWriter()
        writer.writeUInt32(versionField, version)
        body(&writer)
        return writer.takeSecret()
    }

    /// The key pair stored at `field` (public key) and `field + 1` (private key).
    static func keyPair(_ fields: ProtobufFields, at field: UInt32, _ what: String) throws -> KeyPair {
        try keyPair(publicKey: fields.bytes(field), privateKey: fields.secret(field + 1), what)
    }

    static func keyPair(publicKey: [UInt8]?, privateKey: SecretBytes?, _ what: String) throws -> KeyPair {
        guard let publicKey, let privateKey else { throw malformed(what) }
        let pair = try KeyPair(privateKey: PrivateKey(secret: privateKey))
        guard pair.publicKey == (try PublicKey(serialized: publicKey)) else {
            throw SignalProtocolError(.invalidKey, "stored \(what) public key does not match its private key")
        }
        return pair
    }
}

extension ProtobufWriter {
    /// Writes a key pair as the storage format keeps it: the public key at `field`, the private
    /// key at `field + 1`.
    mutating func writeKeyPair(_ field: UInt32, _ keyPair: KeyPair) {
        writeBytes(field, keyPair.publicKey.serialized)
        writeSecret(field + 1, keyPair.privateKey.secret)
    }
}

extension IdentityKeyPair {
    /// Serialises for the caller's own key storage; the result holds the private key.
    public func serialized() -> SecretBytes {
        StorageFormat.record { writer in
            writer.writeBytes(1, identityKey.serialized)
            writer.writeSecret(2, privateKey.secret)
        }
    }

    /// Restores a serialised identity.
    /// - Throws: `.invalidProtobuf`, `.invalidKey`, `.unknownVersion`.
    public init(serialized: SecretBytes) throws {
        let fields = try StorageFormat.fields(serialized, [1: .lengthDelimited, 2: .lengthDelimited], "identity")
        self.init(keyPair: try StorageFormat.keyPair(fields, at: 1, "identity"))
    }
}

extension PreKeyRecord {
    /// Serialises for a prekey store; the result holds the private key.
    public func serialized() -> SecretBytes {
        StorageFormat.record { writer in
            writer.writeUInt32(1, id)
            writer.writeKeyPair(2, keyPair)
        }
    }

    /// Restores a serialised prekey.
    public init(serialized: SecretBytes) throws {
        let schema: ProtobufFields.Schema = [1: .varint, 2: .lengthDelimited, 3: .lengthDelimited]
        let fields = try StorageFormat.fields(serialized, schema, "prekey")
        guard let id = fields.uint32(1) else { throw StorageFormat.malformed("prekey") }
        self.init(id: id, keyPair: try StorageFormat.keyPair(fields, at: 2, "prekey"))
    }
}

extension SignedPreKeyRecord {
    /// Serialises for a signed prekey store; the result holds the private key.
    public func serialized() -> SecretBytes {
        StorageFormat.record { writer in
            writer.writeUInt32(1, id)
            writer.writeKeyPair(2, keyPair)
            writer.writeBytes(4, signature)
            writer.writeUInt64(5, timestamp)
        }
    }

    /// Restores a serialised signed prekey.
    public init(serialized: SecretBytes) throws {
        let fields = try StorageFormat.fields(
            serialized, [1: .varint, 2: .lengthDelimited, 3: .lengthDelimited, 4: .lengthDelimited, 5: .varint],
            "signed prekey")
        guard let id = fields.uint32(1), let signature = fields.bytes(4) else {
            throw StorageFormat.malformed("signed prekey")
        }
        self.init(
            id: id, keyPair: try StorageFormat.keyPair(fields, at: 2, "signed prekey"), signature: signature,
            timestamp: fields.uint64(5) ?? 0)
    }
}
