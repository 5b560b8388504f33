extension SessionRecord {
    /// Serialises for a session store; the result holds chain and ratchet secrets.
    public func serialized() -> SecretBytes {
        var writer = ProtobufWriter()
        writer.writeUInt32(StorageFormat.versionField, StorageFormat.version)
        if let currentState { writer.writeMessage(1) { currentState.write(to: &$0) } }
        for state in previousStates { writer.writeMessage(2) { state.write(to: &$0) } }
        return writer.takeSecret()
    }

    /// Restores a serialised record.
    /// - Throws: `.invalidProtobuf`, `.invalidKey`, `.unknownVersion`.
    public init(serialized: SecretBytes) throws {
        self.init()
        var reader = ProtobufReader(secret: serialized)
        var version: UInt32?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (StorageFormat.versionField, .varint): version = try reader.readUInt32()
            case (1, .lengthDelimited):
                currentState = try SessionState(reader: ProtobufReader(secret: reader.readSecret()))
            case (2, .lengthDelimited):
                previousStates.append(
                    try SessionState(reader: ProtobufReader(secret: reader.readSecret())))
            default: try reader.skip(wireType)
            }
        }
        try StorageFormat.checkVersion(version, "session")
    }
}

extension SessionState {
    func write(to writer: inout ProtobufWriter) {
        writer.writeUInt32(1, UInt32(sessionVersion))
        writer.writeBytes(2, localIdentity.serialized)
        writer.writeBytes(3, remoteIdentity.serialized)
        writer.writeSecret(4, rootKey.key)
        writer.writeUInt32(5, previousCounter)
        writer.writeBytes(6, senderRatchetKey.publicKey.serialized)
        writer.writeSecret(7, senderRatchetKey.privateKey.secret)
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

    init(reader: ProtobufReader) throws {
        var reader = reader
        var version: UInt32?
        var localIdentity: [UInt8]?
        var remoteIdentity: [UInt8]?
        var rootKey: SecretBytes?
        var previousCounter: UInt32 = 0
        var ratchetPublic: [UInt8]?
        var ratchetPrivate: SecretBytes?
        var chainKey: SecretBytes?
        var chainIndex: UInt32 = 0
        var chains: [ReceiverChain] = []
        var pending: PendingPreKey?
        var localRegistrationId: UInt32 = 0
        var remoteRegistrationId: UInt32 = 0
        var aliceBaseKey: PublicKey?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (1, .varint): version = try reader.readUInt32()
            case (2, .lengthDelimited): localIdentity = try reader.readLengthDelimited()
            case (3, .lengthDelimited): remoteIdentity = try reader.readLengthDelimited()
            case (4, .lengthDelimited): rootKey = try reader.readSecret()
            case (5, .varint): previousCounter = try reader.readUInt32()
            case (6, .lengthDelimited): ratchetPublic = try reader.readLengthDelimited()
            case (7, .lengthDelimited): ratchetPrivate = try reader.readSecret()
            case (8, .lengthDelimited): chainKey = try reader.readSecret()
            case (9, .varint): chainIndex = try reader.readUInt32()
            case (10, .lengthDelimited): chains.append(try Self.readChain(reader.readSecret()))
            case (11, .lengthDelimited): pending = try Self.readPending(reader.readLengthDelimited())
            case (12, .varint): localRegistrationId = try reader.readUInt32()
            case (13, .varint): remoteRegistrationId = try reader.readUInt32()
            case (14, .lengthDelimited): aliceBaseKey = try PublicKey(serialized: reader.readLengthDelimited())
            default: try reader.skip(wireType)
            }
        }
        guard let version, version <= UInt32(UInt8.max), let localIdentity, let remoteIdentity, let rootKey,
            rootKey.count == 32, let chainKey, chainKey.count == 32
        else { throw StorageFormat.malformed("session state") }
        self.init(
            sessionVersion: UInt8(version), localIdentity: try PublicKey(serialized: localIdentity),
            remoteIdentity: try PublicKey(serialized: remoteIdentity), rootKey: RootKey(key: rootKey),
            senderRatchetKey: try StorageFormat.keyPair(
                publicKey: ratchetPublic, privateKey: ratchetPrivate, "ratchet key"),
            senderChainKey: ChainKey(key: chainKey, index: chainIndex))
        self.previousCounter = previousCounter
        self.receiverChains = chains
        self.pendingPreKey = pending
        self.localRegistrationId = localRegistrationId
        self.remoteRegistrationId = remoteRegistrationId
        self.aliceBaseKey = aliceBaseKey
    }

    private static func readChain(_ bytes: SecretBytes) throws -> ReceiverChain {
        var reader = ProtobufReader(secret: bytes)
        var ratchetKey: [UInt8]?
        var key: SecretBytes?
        var index: UInt32 = 0
        var skipped: [MessageKeys] = []
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (1, .lengthDelimited): ratchetKey = try reader.readLengthDelimited()
            case (2, .lengthDelimited): key = try reader.readSecret()
            case (3, .varint): index = try reader.readUInt32()
            case (4, .lengthDelimited): skipped.append(try readMessageKeys(reader.readSecret()))
            default: try reader.skip(wireType)
            }
        }
        guard let ratchetKey, let key, key.count == 32 else { throw StorageFormat.malformed("receiver chain") }
        return ReceiverChain(
            ratchetKey: try PublicKey(serialized: ratchetKey), chainKey: ChainKey(key: key, index: index),
            skippedKeys: skipped)
    }

    private static func readMessageKeys(_ bytes: SecretBytes) throws -> MessageKeys {
        var reader = ProtobufReader(secret: bytes)
        var counter: UInt32 = 0
        var cipherKey: SecretBytes?
        var macKey: SecretBytes?
        var iv: SecretBytes?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (1, .varint): counter = try reader.readUInt32()
            case (2, .lengthDelimited): cipherKey = try reader.readSecret()
            case (3, .lengthDelimited): macKey = try reader.readSecret()
            case (4, .lengthDelimited): iv = try reader.readSecret()
            default: try reader.skip(wireType)
            }
        }
        guard let cipherKey, cipherKey.count == 32, let macKey, macKey.count == 32, let iv, iv.count == 16 else {
            throw StorageFormat.malformed("message keys")
        }
        return MessageKeys(cipherKey: cipherKey, macKey: macKey, iv: iv, counter: counter)
    }

    private static func readPending(_ bytes: [UInt8]) throws -> PendingPreKey {
        var reader = ProtobufReader(bytes)
        var preKeyId: UInt32?
        var signedPreKeyId: UInt32?
        var baseKey: [UInt8]?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (1, .varint): preKeyId = try reader.readUInt32()
            case (2, .varint): signedPreKeyId = try reader.readUInt32()
            case (3, .lengthDelimited): baseKey = try reader.readLengthDelimited()
            default: try reader.skip(wireType)
            }
        }
        guard let signedPreKeyId, let baseKey else { throw StorageFormat.malformed("pending prekey") }
        return PendingPreKey(
            preKeyId: preKeyId, signedPreKeyId: signedPreKeyId, baseKey: try PublicKey(serialized: baseKey))
    }
}
