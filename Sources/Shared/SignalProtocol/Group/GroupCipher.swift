/// Sender-key group messaging compatible with libsignal-protocol-c: one encryption per group
/// message, with each member holding every sender's chain.
public struct GroupCipher: Sendable {
    /// Where sender keys live.
    public let store: any SenderKeyStore
    /// Limits (`maxForwardJump`, `maxSkippedKeysPerChain` apply to sender chains too).
    public let configuration: SessionConfiguration

    /// Creates a group cipher.
    public init(store: any SenderKeyStore, configuration: SessionConfiguration = .default) {
        self.store = store
        self.configuration = configuration
    }

    /// Our distribution message for `name` (our own address in a group), creating our sender key
    /// on first use; send it to every member over pairwise sessions.
    public func distributionMessage(for name: SenderKeyName) throws -> SenderKeyDistributionMessage {
        try store.senderKeyTransaction { try bound(to: $0).distributionMessageInTransaction(for: name) }
    }

    /// Starts a new generation of our sender key (when a member leaves, so it cannot read on) and
    /// returns its distribution message for the remaining members.
    public func rotate(for name: SenderKeyName) throws -> SenderKeyDistributionMessage {
        try store.senderKeyTransaction { try bound(to: $0).rotateInTransaction(for: name) }
    }

    /// Stores a member's sender key received in a distribution message. A key already known
    /// (same id and signing key) keeps its current position: processing the message again does
    /// not make old messages decrypt again.
    public func process(_ message: SenderKeyDistributionMessage, from name: SenderKeyName) throws {
        try store.senderKeyTransaction { try bound(to: $0).processInTransaction(message, from: name) }
    }

    /// Encrypts one group message with our sender key for `name`. Load, advance and store run in
    /// one store transaction, so concurrent calls never reuse an iteration.
    /// - Throws: `.noSenderKeyState` when `distributionMessage(for:)` was never called.
    public func encrypt(_ plaintext: [UInt8], for name: SenderKeyName) throws -> SenderKeyMessage {
        try store.senderKeyTransaction { try bound(to: $0).encryptInTransaction(plaintext, for: name) }
    }

    /// Decrypts a member's group message; state is committed only if `accept` returns, in the same
    /// store transaction.
    public func decrypt<R>(_ message: SenderKeyMessage, from name: SenderKeyName, accept: ([UInt8]) throws -> R)
        throws -> R
    {
        try store.senderKeyTransaction { try bound(to: $0).decryptInTransaction(message, from: name, accept: accept) }
    }

    /// Decrypts and commits at once.
    public func decrypt(_ message: SenderKeyMessage, from name: SenderKeyName) throws -> [UInt8] {
        try decrypt(message, from: name) { $0 }
    }

    /// This cipher over the store of a running transaction.
    private func bound(to store: any SenderKeyStore) -> GroupCipher {
        GroupCipher(store: store, configuration: configuration)
    }

    private func distributionMessageInTransaction(for name: SenderKeyName) throws -> SenderKeyDistributionMessage {
        var record = try store.loadSenderKey(for: name) ?? SenderKeyRecord()
        if record.isEmpty {
            try record.add(Self.newOwnState())
            try store.storeSenderKey(record, for: name)
        }
        guard let state = record.states.first else {
            throw SignalProtocolError(.noSenderKeyState, "no sender key for group \(name.groupId)")
        }
        return Self.distribution(of: state)
    }

    private func rotateInTransaction(for name: SenderKeyName) throws -> SenderKeyDistributionMessage {
        var record = try store.loadSenderKey(for: name) ?? SenderKeyRecord()
        let state = try Self.newOwnState()
        record.add(state)
        try store.storeSenderKey(record, for: name)
        return Self.distribution(of: state)
    }

    private static func newOwnState() throws -> SenderKeyState {
        let signing = try KeyPair.generate()
        return SenderKeyState(
            keyId: try Sodium.randomUniform(UInt32(Int32.max)),
            chainKey: SenderChainKey(iteration: 0, seed: try Sodium.randomSecret(32)),
            signingKey: signing.publicKey, signingPrivateKey: signing.privateKey)
    }

    private static func distribution(of state: SenderKeyState) -> SenderKeyDistributionMessage {
        SenderKeyDistributionMessage(
            keyId: state.keyId, iteration: state.chainKey.iteration, chainKey: state.chainKey.seed,
            signingKey: state.signingKey)
    }

    private func processInTransaction(_ message: SenderKeyDistributionMessage, from name: SenderKeyName) throws {
        var record = try store.loadSenderKey(for: name) ?? SenderKeyRecord()
        record.addReceived(
            SenderKeyState(
                keyId: message.keyId, chainKey: SenderChainKey(iteration: message.iteration, seed: message.chainKey),
                signingKey: message.signingKey, signingPrivateKey: nil))
        try store.storeSenderKey(record, for: name)
    }

    private func encryptInTransaction(_ plaintext: [UInt8], for name: SenderKeyName) throws -> SenderKeyMessage {
        guard var record = try store.loadSenderKey(for: name), var state = record.states.first,
            let signing = state.signingPrivateKey
        else {
            throw SignalProtocolError(.noSenderKeyState, "no own sender key for group \(name.groupId)")
        }
        let key = try state.chainKey.messageKey()
        let ciphertext = try AESCBC.encrypt(key: key.cipherKey, iv: key.iv, plaintext: plaintext)
        let message = try SenderKeyMessage(
            keyId: state.keyId, iteration: key.iteration, ciphertext: ciphertext, signingKey: signing)
        state.chainKey = state.chainKey.next()
        record.states[0] = state
        try store.storeSenderKey(record, for: name)
        return message
    }

    private func decryptInTransaction<R>(
        _ message: SenderKeyMessage, from name: SenderKeyName, accept: ([UInt8]) throws -> R
    ) throws -> R {
        guard var record = try store.loadSenderKey(for: name), let index = record.state(keyId: message.keyId) else {
            throw SignalProtocolError(.noSenderKeyState, "no sender key \(message.keyId) for \(name.sender)")
        }
        var state = record.states[index]
        guard message.verifySignature(state.signingKey) else {
            throw SignalProtocolError(.invalidSignature, "group message signature does not verify")
        }
        let key = try messageKey(iteration: message.iteration, state: &state)
        let plaintext = try AESCBC.decrypt(key: key.cipherKey, iv: key.iv, ciphertext: message.ciphertext)
        let result = try accept(plaintext)
        record.states[index] = state
        try store.storeSenderKey(record, for: name)
        return result
    }

    private func messageKey(iteration: UInt32, state: inout SenderKeyState) throws -> SenderMessageKey {
        let (key, chain) = try state.chainKey.key(
            at: iteration, skipped: &state.skippedKeys, limits: configuration, what: "group message")
        state.chainKey = chain
        return key
    }
}
