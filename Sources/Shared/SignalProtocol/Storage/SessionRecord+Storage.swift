extension SessionRecord {
    /// Serialises for a session store; the result holds chain and ratchet secrets.
    public func serialized() -> SecretBytes {
        StorageFormat.record { writer in
            if let currentState { writer.writeMessage(1) { currentState.write(to: &$0) } }
            for state in previousStates { writer.writeMessage(2) { state.write(to: &$0) } }
        }
    }

    /// Restores a serialised record.
    /// - Throws: `.invalidProtobuf`, `.invalidKey`, `.unknownVersion`.
    public init(serialized: SecretBytes) throws {
        self.init()
        let fields = try StorageFormat.fields(serialized, [1: .lengthDelimited, 2: .lengthDelimited], "session")
        currentState = try fields.secret(1).map(SessionState.init(serialized:))
        previousStates = try fields.secrets(2).map(SessionState.init(serialized:))
    }
}

extension SessionState {
    func write(to writer: inout ProtobufWriter) {
        writer.writeUInt32(1, UInt32(sessionVersion))
        writer.writeBytes(2, localIdentity.serialized)
        writer.writeBytes(3, remoteIdentity.serialized)
        writer.writeSecret(4, rootKey.key)
        writer.writeUInt32(5, previousCounter)
        writer.writeKeyPair(6, senderRatchetKey)
        writer.writeSecret(8, senderChainKey.key)
        writer.writeUInt32(9, senderChainKey.index)
        for chain in receiverChains {
            writer.writeMessage(10) { nested in
                nested.writeBytes(1, chain.ratchetKey.serialized)
                nested.writeSecret(2, chain.chainKey.key)
                nested.writeUInt32(3, chain.chainKey.index)
                for keys in chain.skippedKeys {
                    nested.writeMessage(4) { entry in
                        entry.writeUInt32(1, keys.counter)
                        entry.writeSecret(2, keys.cipherKey)
                        entry.writeSecret(3, keys.macKey)
                        entry.writeSecret(4, keys.iv)
                    }
                }
            }
        }
        if let pendingPreKey {
            writer.writeMessage(11) { nested in
                if let preKeyId = pendingPreKey.preKeyId { nested.writeUInt32(1, preKeyId) }
                nested.writeUInt32(2, pendingPreKey.signedPreKeyId)
                nested.writeBytes(3, pendingPreKey.baseKey.serialized)
            }
        }
        writer.writeUInt32(12, localRegistrationId)
        writer.writeUInt32(13, remoteRegistrationId)
        if let aliceBaseKey { writer.writeBytes(14, aliceBaseKey.serialized) }
    }

    private static let schema: ProtobufFields.Schema = [
        1: .varint, 2: .lengthDelimited, 3: .lengthDelimited, 4: .lengthDelimited, 5: .varint, 6: .lengthDelimited,
        7: .lengthDelimited, 8: .lengthDelimited, 9: .varint, 10: .lengthDelimited, 11: .lengthDelimited,
        12: .varint, 13: .varint, 14: .lengthDelimited,
    ]

    init(serialized: SecretBytes) throws {
        let fields = try StorageFormat.nested(serialized, Self.schema)
        let chains = try fields.secrets(10).map(Self.readChain)
        let pending = try fields.secret(11).map(Self.readPending)
        let aliceBaseKey = try fields.bytes(14).map(PublicKey.init(serialized:))
        guard let version = fields.uint32(1), version <= UInt32(UInt8.max), let localIdentity = fields.bytes(2),
            let remoteIdentity = fields.bytes(3), let rootKey = fields.secret(4), rootKey.count == 32,
            let chainKey = fields.secret(8), chainKey.count == 32
        else { throw StorageFormat.malformed("session state") }
        self.init(
            sessionVersion: UInt8(version), localIdentity: try PublicKey(serialized: localIdentity),
            remoteIdentity: try PublicKey(serialized: remoteIdentity), rootKey: RootKey(key: rootKey),
            senderRatchetKey: try StorageFormat.keyPair(fields, at: 6, "ratchet key"),
            senderChainKey: ChainKey(key: chainKey, index: fields.uint32(9) ?? 0))
        self.previousCounter = fields.uint32(5) ?? 0
        self.receiverChains = chains
        self.pendingPreKey = pending
        self.localRegistrationId = fields.uint32(12) ?? 0
        self.remoteRegistrationId = fields.uint32(13) ?? 0
        self.aliceBaseKey = aliceBaseKey
    }

    private static func readChain(_ bytes: SecretBytes) throws -> ReceiverChain {
        let fields = try StorageFormat.nested(
            bytes, [1: .lengthDelimited, 2: .lengthDelimited, 3: .varint, 4: .lengthDelimited])
        let skipped = try fields.secrets(4).map(readMessageKeys)
        guard let ratchetKey = fields.bytes(1), let key = fields.secret(2), key.count == 32 else {
            throw StorageFormat.malformed("receiver chain")
        }
        return ReceiverChain(
            ratchetKey: try PublicKey(serialized: ratchetKey),
            chainKey: ChainKey(key: key, index: fields.uint32(3) ?? 0),
            skippedKeys: skipped)
    }

    private static func readMessageKeys(_ bytes: SecretBytes) throws -> MessageKeys {
        let fields = try StorageFormat.nested(
            bytes, [1: .varint, 2: .lengthDelimited, 3: .lengthDelimited, 4: .lengthDelimited])
        guard let cipherKey = fields.secret(2), cipherKey.count == 32, let macKey = fields.secret(3),
            macKey.count == 32, let iv = fields.secret(4), iv.count == 16
        else { throw StorageFormat.malformed("message keys") }
        return MessageKeys(cipherKey: cipherKey, macKey: macKey, iv: iv, counter: fields.uint32(1) ?? 0)
    }

    private static func readPending(_ bytes: SecretBytes) throws -> PendingPreKey {
        let fields = try StorageFormat.nested(bytes, [1: .varint, 2: .varint, 3: .lengthDelimited])
        guard let signedPreKeyId = fields.uint32(2), let baseKey = fields.bytes(3) else {
            throw StorageFormat.malformed("pending prekey")
        }
        return PendingPreKey(
            preKeyId: fields.uint32(1), signedPreKeyId: signedPreKeyId, baseKey: try PublicKey(serialized: baseKey))
    }
}
