extension SenderKeyRecord {
    /// Serialises for a sender key store; the result holds chain keys (and our signing key).
    public func serialized() -> SecretBytes {
        var writer = ProtobufWriter()
        writer.writeUInt32(StorageFormat.versionField, StorageFormat.version)
        for state in states {
            writer.writeMessage(1) { nested in
                nested.writeUInt32(1, state.keyId)
                nested.writeUInt32(2, state.chainKey.iteration)
                nested.writeSecret(3, state.chainKey.seed)
                nested.writeBytes(4, state.signingKey.serialized)
                if let privateKey = state.signingPrivateKey { nested.writeSecret(5, privateKey.secret) }
                for key in state.skippedKeys {
                    nested.writeMessage(6) { entry in
                        entry.writeUInt32(1, key.iteration)
                        entry.writeSecret(2, key.iv)
                        entry.writeSecret(3, key.cipherKey)
                    }
                }
            }
        }
        return writer.takeSecret()
    }

    /// Restores a serialised record.
    public init(serialized: SecretBytes) throws {
        self.init()
        var reader = ProtobufReader(secret: serialized)
        var version: UInt32?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (StorageFormat.versionField, .varint): version = try reader.readUInt32()
            case (1, .lengthDelimited):
                guard states.count < Self.maxStates else { throw StorageFormat.malformed("sender key record") }
                states.append(try Self.readState(reader.readSecret()))
            default: try reader.skip(wireType)
            }
        }
        try StorageFormat.checkVersion(version, "sender key record")
    }

    private static func readState(_ bytes: SecretBytes) throws -> SenderKeyState {
        var reader = ProtobufReader(secret: bytes)
        var keyId: UInt32?
        var iteration: UInt32 = 0
        var seed: SecretBytes?
        var signingKey: [UInt8]?
        var signingPrivate: SecretBytes?
        var skipped: [SenderMessageKey] = []
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (1, .varint): keyId = try reader.readUInt32()
            case (2, .varint): iteration = try reader.readUInt32()
            case (3, .lengthDelimited): seed = try reader.readSecret()
            case (4, .lengthDelimited): signingKey = try reader.readLengthDelimited()
            case (5, .lengthDelimited): signingPrivate = try reader.readSecret()
            case (6, .lengthDelimited): skipped.append(try readKey(reader.readSecret()))
            default: try reader.skip(wireType)
            }
        }
        guard let keyId, let seed, seed.count == 32, let signingKey else {
            throw StorageFormat.malformed("sender key state")
        }
        let publicKey = try PublicKey(serialized: signingKey)
        var privateKey: PrivateKey?
        if let signingPrivate {
            let pair = try StorageFormat.keyPair(publicKey: signingKey, privateKey: signingPrivate, "signing key")
            privateKey = pair.privateKey
        }
        return SenderKeyState(
            keyId: keyId, chainKey: SenderChainKey(iteration: iteration, seed: seed), signingKey: publicKey,
            signingPrivateKey: privateKey, skippedKeys: skipped)
    }

    private static func readKey(_ bytes: SecretBytes) throws -> SenderMessageKey {
        var reader = ProtobufReader(secret: bytes)
        var iteration: UInt32 = 0
        var iv: SecretBytes?
        var cipherKey: SecretBytes?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (1, .varint): iteration = try reader.readUInt32()
            case (2, .lengthDelimited): iv = try reader.readSecret()
            case (3, .lengthDelimited): cipherKey = try reader.readSecret()
            default: try reader.skip(wireType)
            }
        }
        guard let iv, iv.count == 16, let cipherKey, cipherKey.count == 32 else {
            throw StorageFormat.malformed("sender message key")
        }
        return SenderMessageKey(iteration: iteration, iv: iv, cipherKey: cipherKey)
    }
}
