/// Starts sessions: from a fetched prekey bundle (initiator) or from a received
/// `PreKeySignalMessage` (responder).
public struct SessionBuilder: Sendable {
    /// The stores.
    public let stores: SignalStores
    /// The remote device.
    public let remoteAddress: ProtocolAddress
    /// Limits.
    public let configuration: SessionConfiguration

    /// Creates a builder.
    public init(stores: SignalStores, remoteAddress: ProtocolAddress, configuration: SessionConfiguration = .default) {
        self.stores = stores
        self.remoteAddress = remoteAddress
        self.configuration = configuration
    }

    /// Verifies a bundle, runs X3DH as the initiator and stores the new session; the next
    /// messages to this address are `PreKeySignalMessage`s until the peer replies.
    /// - Throws: `.untrustedIdentity`, `.invalidSignature`, `.invalidKey`.
    public func process(bundle: PreKeyBundle) throws {
        try stores.transaction { try bound(to: $0).processInTransaction(bundle: bundle) }
    }

    /// This builder over the stores of a running transaction.
    func bound(to stores: SignalStores) -> SessionBuilder {
        SessionBuilder(stores: stores, remoteAddress: remoteAddress, configuration: configuration)
    }

    private func processInTransaction(bundle: PreKeyBundle) throws {
        guard try stores.identities.isTrustedIdentity(bundle.identityKey, for: remoteAddress, direction: .sending)
        else {
            throw SignalProtocolError(.untrustedIdentity, "untrusted identity for \(remoteAddress)")
        }
        guard bundle.identityKey.verifySignature(bundle.signedPreKeySignature, for: bundle.signedPreKey.serialized)
        else {
            throw SignalProtocolError(.invalidSignature, "signed prekey signature does not verify")
        }
        guard (bundle.preKeyId == nil) == (bundle.preKey == nil) else {
            throw SignalProtocolError(.invalidArgument, "bundle has a one-time prekey without id or the reverse")
        }
        let ourIdentity = try stores.identities.identityKeyPair()
        let baseKey = try KeyPair.generate()
        var state = try X3DH.aliceState(
            ourIdentity: ourIdentity, ourBaseKey: baseKey, theirIdentity: bundle.identityKey,
            theirSignedPreKey: bundle.signedPreKey, theirOneTimePreKey: bundle.preKey, configuration: configuration)
        state.pendingPreKey = .init(
            preKeyId: bundle.preKeyId, signedPreKeyId: bundle.signedPreKeyId, baseKey: baseKey.publicKey)
        state.localRegistrationId = try stores.identities.localRegistrationId()
        state.remoteRegistrationId = bundle.registrationId
        state.aliceBaseKey = baseKey.publicKey
        var record = try stores.sessions.loadSession(for: remoteAddress) ?? SessionRecord()
        record.promote(state, limit: configuration.maxArchivedStates)
        try stores.sessions.storeSession(record, for: remoteAddress)
        try stores.identities.saveIdentity(bundle.identityKey, for: remoteAddress)
    }

    /// Runs X3DH as the responder into `record` (not stored yet).
    /// - Returns: the one-time prekey id to delete once the message is accepted, if any.
    func process(_ message: PreKeySignalMessage, into record: inout SessionRecord) throws -> UInt32? {
        guard try stores.identities.isTrustedIdentity(message.identityKey, for: remoteAddress, direction: .receiving)
        else {
            throw SignalProtocolError(.untrustedIdentity, "untrusted identity for \(remoteAddress)")
        }
        if record.hasState(version: message.messageVersion, aliceBaseKey: message.baseKey) {
            // A repeated session-opening message: the session already exists and its prekey is gone.
            return nil
        }
        guard let signedPreKey = try stores.signedPreKeys.loadSignedPreKey(id: message.signedPreKeyId) else {
            throw SignalProtocolError(.missingSignedPreKey, "no signed prekey \(message.signedPreKeyId)")
        }
        var oneTime: PreKeyRecord?
        if let preKeyId = message.preKeyId {
            guard let record = try stores.preKeys.loadPreKey(id: preKeyId) else {
                throw SignalProtocolError(.missingPreKey, "no one-time prekey \(preKeyId)")
            }
            oneTime = record
        }
        var state = try X3DH.bobState(
            ourIdentity: stores.identities.identityKeyPair(), ourSignedPreKey: signedPreKey.keyPair,
            ourOneTimePreKey: oneTime?.keyPair, theirIdentity: message.identityKey, theirBaseKey: message.baseKey)
        state.localRegistrationId = try stores.identities.localRegistrationId()
        state.remoteRegistrationId = message.registrationId
        state.aliceBaseKey = message.baseKey
        record.promote(state, limit: configuration.maxArchivedStates)
        return message.preKeyId
    }
}
