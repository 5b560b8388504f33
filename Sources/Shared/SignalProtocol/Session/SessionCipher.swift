/// Encrypts to and decrypts from one remote device.
///
/// Decryption is transactional: the caller's `accept` closure sees the plaintext first, and the
/// advanced session state, identity and prekey deletion are committed only if it returns. With a
/// store that has a transaction runner (`SQLiteSignalStore`) all of it, `accept` included, runs in
/// one database transaction.
public struct SessionCipher: Sendable {
    /// The builder over the same stores, device and limits, which opens the session when a
    /// `PreKeySignalMessage` arrives (libsignal-protocol-java's cipher holds its builder too).
    private let builder: SessionBuilder
    /// The stores.
    public var stores: SignalStores { builder.stores }
    /// The remote device.
    public var remoteAddress: ProtocolAddress { builder.remoteAddress }
    /// Limits.
    public var configuration: SessionConfiguration { builder.configuration }

    /// Creates a cipher.
    public init(stores: SignalStores, remoteAddress: ProtocolAddress, configuration: SessionConfiguration = .default) {
        builder = SessionBuilder(stores: stores, remoteAddress: remoteAddress, configuration: configuration)
    }

    private init(builder: SessionBuilder) { self.builder = builder }

    /// Encrypts `plaintext` with the current session.
    /// - Throws: `.noSession`, `.untrustedIdentity`.
    public func encrypt(_ plaintext: [UInt8]) throws -> CiphertextMessage {
        try stores.transaction { try bound(to: $0).encryptInTransaction(plaintext) }
    }

    private func encryptInTransaction(_ plaintext: [UInt8]) throws -> CiphertextMessage {
        guard var record = try stores.sessions.loadSession(for: remoteAddress), var state = record.currentState else {
            throw SignalProtocolError(.noSession, "no session with \(remoteAddress)")
        }
        guard try stores.identities.isTrustedIdentity(state.remoteIdentity, for: remoteAddress, direction: .sending)
        else {
            throw SignalProtocolError(.untrustedIdentity, "untrusted identity for \(remoteAddress)")
        }
        let chainKey = state.senderChainKey
        let keys = try chainKey.messageKeys()
        let ciphertext = try AESCBC.encrypt(key: keys.cipherKey, iv: keys.iv, plaintext: plaintext)
        let message = SignalMessage(
            version: state.sessionVersion, macKey: keys.macKey, senderRatchetKey: state.senderRatchetKey.publicKey,
            counter: chainKey.index, previousCounter: state.previousCounter, ciphertext: ciphertext,
            senderIdentity: state.localIdentity, receiverIdentity: state.remoteIdentity)
        let result: CiphertextMessage
        if let pending = state.pendingPreKey {
            result = .preKey(
                PreKeySignalMessage(
                    version: state.sessionVersion, registrationId: state.localRegistrationId,
                    preKeyId: pending.preKeyId, signedPreKeyId: pending.signedPreKeyId, baseKey: pending.baseKey,
                    identityKey: state.localIdentity, message: message))
        } else {
            result = .whisper(message)
        }
        state.senderChainKey = chainKey.next()
        record.currentState = state
        try stores.sessions.storeSession(record, for: remoteAddress)
        return result
    }

    /// Decrypts either message type; `accept` runs before anything is committed.
    /// - Parameter accept: called with the plaintext; if it throws, no state changes and its error is rethrown.
    public func decrypt<R>(_ message: CiphertextMessage, accept: ([UInt8]) throws -> R) throws -> R {
        switch message {
        case .whisper(let message): try decrypt(message, accept: accept)
        case .preKey(let message): try decrypt(message, accept: accept)
        }
    }

    /// Decrypts and commits at once.
    public func decrypt(_ message: CiphertextMessage) throws -> [UInt8] {
        try decrypt(message) { $0 }
    }

    /// Decrypts a session-opening message, creating the session if it is new.
    public func decrypt<R>(_ message: PreKeySignalMessage, accept: ([UInt8]) throws -> R) throws -> R {
        try stores.transaction { try bound(to: $0).decryptInTransaction(message, accept: accept) }
    }

    /// Decrypts a message in an existing session.
    public func decrypt<R>(_ message: SignalMessage, accept: ([UInt8]) throws -> R) throws -> R {
        try stores.transaction { try bound(to: $0).decryptInTransaction(message, accept: accept) }
    }

    /// This cipher over the stores of a running transaction.
    private func bound(to stores: SignalStores) -> SessionCipher { SessionCipher(builder: builder.bound(to: stores)) }

    private func decryptInTransaction<R>(_ message: PreKeySignalMessage, accept: ([UInt8]) throws -> R) throws -> R {
        var record = try stores.sessions.loadSession(for: remoteAddress) ?? SessionRecord()
        let usedPreKey = try builder.process(message, into: &record)
        let plaintext = try decrypt(message.message, record: &record)
        // The identity field is outside the MAC: save the identity of the state that decrypted (for a
        // repeated opening message, the existing session's), never what the message claims.
        guard let remoteIdentity = record.currentState?.remoteIdentity else {
            throw SignalProtocolError(.noSession, "no session state with \(remoteAddress) after decrypting")
        }
        let result = try accept(plaintext)
        try stores.sessions.storeSession(record, for: remoteAddress)
        try stores.identities.saveIdentity(remoteIdentity, for: remoteAddress)
        if let usedPreKey { try stores.preKeys.removePreKey(id: usedPreKey) }
        return result
    }

    private func decryptInTransaction<R>(_ message: SignalMessage, accept: ([UInt8]) throws -> R) throws -> R {
        guard var record = try stores.sessions.loadSession(for: remoteAddress) else {
            throw SignalProtocolError(.noSession, "no session with \(remoteAddress)")
        }
        let plaintext = try decrypt(message, record: &record)
        guard let remoteIdentity = record.currentState?.remoteIdentity,
            try stores.identities.isTrustedIdentity(remoteIdentity, for: remoteAddress, direction: .receiving)
        else {
            throw SignalProtocolError(.untrustedIdentity, "untrusted identity for \(remoteAddress)")
        }
        let result = try accept(plaintext)
        try stores.sessions.storeSession(record, for: remoteAddress)
        return result
    }

    /// Whether a session with a current state exists.
    public func hasSession() throws -> Bool {
        try stores.sessions.loadSession(for: remoteAddress)?.currentState != nil
    }

    /// The remote registration id of the current session.
    public func remoteRegistrationId() throws -> UInt32 {
        guard let state = try stores.sessions.loadSession(for: remoteAddress)?.currentState else {
            throw SignalProtocolError(.noSession, "no session with \(remoteAddress)")
        }
        return state.remoteRegistrationId
    }
}
