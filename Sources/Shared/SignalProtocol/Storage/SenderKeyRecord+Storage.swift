extension SenderKeyRecord {
    /// Serialises for a sender key store; the result holds chain keys (and our signing key).
    public func serialized() -> SecretBytes {
        StorageFormat.record { writer in
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
        }
    }

    /// Restores a serialised record.
    public init(serialized: SecretBytes) throws {
        self.init()
        let states = try StorageFormat.fields(serialized, [1: .lengthDelimited], "sender key record").secrets(1)
        guard states.count <= Self.maxStates else { throw StorageFormat.malformed("sender key record") }
        self.states = try states.map(Self.readState)
    }

    private static func readState(_ bytes: SecretBytes) throws -> SenderKeyState {
        let fields = try StorageFormat.nested(
            bytes,
            [
                1: .varint, 2: .varint, 3: .lengthDelimited, 4: .lengthDelimited, 5: .lengthDelimited,
                6: .lengthDelimited,
            ])
        let skipped = try fields.secrets(6).map(readKey)
        guard let keyId = fields.uint32(1), let seed = fields.secret(3), seed.count == 32,
            let signingKey = fields.bytes(4)
        else { throw StorageFormat.malformed("sender key state") }
        let publicKey = try PublicKey(serialized: signingKey)
        var privateKey: PrivateKey?
        if let signingPrivate = fields.secret(5) {
            let pair = try StorageFormat.keyPair(publicKey: signingKey, privateKey: signingPrivate, "signing key")
            privateKey = pair.privateKey
        }
        return SenderKeyState(
            keyId: keyId, chainKey: SenderChainKey(iteration: fields.uint32(2) ?? 0, seed: seed),
            signingKey: publicKey, signingPrivateKey: privateKey, skippedKeys: skipped)
    }

    private static func readKey(_ bytes: SecretBytes) throws -> SenderMessageKey {
        let fields = try StorageFormat.nested(bytes, [1: .varint, 2: .lengthDelimited, 3: .lengthDelimited])
        guard let iv = fields.secret(2), iv.count == 16, let cipherKey = fields.secret(3), cipherKey.count == 32 else {
            throw StorageFormat.malformed("sender message key")
        }
        return SenderMessageKey(iteration: fields.uint32(1) ?? 0, iv: iv, cipherKey: cipherKey)
    }
}
