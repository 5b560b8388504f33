/// Shared rules for the persistence format of records (Courier's own protobuf schema, not
/// libsignal's): every top-level record starts with field 15 = format version.
enum StorageFormat {
    static let versionField: UInt32 = 15
    static let version: UInt32 = 1

    static func malformed(_ what: String) -> SignalProtocolError {
        SignalProtocolError(.invalidProtobuf, "stored \(what) is malformed")
    }

    static func checkVersion(_ value: UInt32?, _ what: String) throws {
        guard value == version else {
            throw SignalProtocolError(.unknownVersion, "stored \(what) has unknown format version")
        }
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

extension IdentityKeyPair {
    /// Serialises for the caller's own key storage; the result holds the private key.
    public func serialized() -> SecretBytes {
        var writer = ProtobufWriter()
        writer.writeUInt32(StorageFormat.versionField, StorageFormat.version)
        writer.writeBytes(1, identityKey.serialized)
        writer.writeSecret(2, privateKey.secret)
        return writer.takeSecret()
    }

    /// Restores a serialised identity.
    /// - Throws: `.invalidProtobuf`, `.invalidKey`, `.unknownVersion`.
    public init(serialized: SecretBytes) throws {
        var reader = ProtobufReader(secret: serialized)
        var version: UInt32?
        var publicKey: [UInt8]?
        var privateKey: SecretBytes?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (StorageFormat.versionField, .varint): version = try reader.readUInt32()
            case (1, .lengthDelimited): publicKey = try reader.readLengthDelimited()
            case (2, .lengthDelimited): privateKey = try reader.readSecret()
            default: try reader.skip(wireType)
            }
        }
        try StorageFormat.checkVersion(version, "identity")
        self.init(keyPair: try StorageFormat.keyPair(publicKey: publicKey, privateKey: privateKey, "identity"))
    }
}

extension PreKeyRecord {
    /// Serialises for a prekey store; the result holds the private key.
    public func serialized() -> SecretBytes {
        var writer = ProtobufWriter()
        writer.writeUInt32(StorageFormat.versionField, StorageFormat.version)
        writer.writeUInt32(1, id)
        writer.writeBytes(2, keyPair.publicKey.serialized)
        writer.writeSecret(3, keyPair.privateKey.secret)
        return writer.takeSecret()
    }

    /// Restores a serialised prekey.
    public init(serialized: SecretBytes) throws {
        var reader = ProtobufReader(secret: serialized)
        var version: UInt32?
        var id: UInt32?
        var publicKey: [UInt8]?
        var privateKey: SecretBytes?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (StorageFormat.versionField, .varint): version = try reader.readUInt32()
            case (1, .varint): id = try reader.readUInt32()
            case (2, .lengthDelimited): publicKey = try reader.readLengthDelimited()
            case (3, .lengthDelimited): privateKey = try reader.readSecret()
            default: try reader.skip(wireType)
            }
        }
        try StorageFormat.checkVersion(version, "prekey")
        guard let id else { throw StorageFormat.malformed("prekey") }
        self.init(id: id, keyPair: try StorageFormat.keyPair(publicKey: publicKey, privateKey: privateKey, "prekey"))
    }
}

extension SignedPreKeyRecord {
    /// Serialises for a signed prekey store; the result holds the private key.
    public func serialized() -> SecretBytes {
        var writer = ProtobufWriter()
        writer.writeUInt32(StorageFormat.versionField, StorageFormat.version)
        writer.writeUInt32(1, id)
        writer.writeBytes(2, keyPair.publicKey.serialized)
        writer.writeSecret(3, keyPair.privateKey.secret)
        writer.writeBytes(4, signature)
        writer.writeUInt64(5, timestamp)
        return writer.takeSecret()
    }

    /// Restores a serialised signed prekey.
    public init(serialized: SecretBytes) throws {
        var reader = ProtobufReader(secret: serialized)
        var version: UInt32?
        var id: UInt32?
        var publicKey: [UInt8]?
        var privateKey: SecretBytes?
        var signature: [UInt8]?
        var timestamp: UInt64 = 0
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (StorageFormat.versionField, .varint): version = try reader.readUInt32()
            case (1, .varint): id = try reader.readUInt32()
            case (2, .lengthDelimited): publicKey = try reader.readLengthDelimited()
            case (3, .lengthDelimited): privateKey = try reader.readSecret()
            case (4, .lengthDelimited): signature = try reader.readLengthDelimited()
            case (5, .varint): timestamp = try reader.readVarint()
            default: try reader.skip(wireType)
            }
        }
        try StorageFormat.checkVersion(version, "signed prekey")
        guard let id, let signature else { throw StorageFormat.malformed("signed prekey") }
        self.init(
            id: id, keyPair: try StorageFormat.keyPair(publicKey: publicKey, privateKey: privateKey, "signed prekey"),
            signature: signature, timestamp: timestamp)
    }
}
