/// One Double Ratchet session with a remote device. A value type: decrypting works on a copy,
/// which is committed only when everything succeeded.
public struct SessionState: Sendable {
    /// A receiving chain and the keys of messages skipped on it.
    struct ReceiverChain: Sendable {
        var ratchetKey: PublicKey
        var chainKey: ChainKey
        /// Skipped keys in the order they were derived; the oldest are evicted first.
        var skippedKeys: [MessageKeys] = []
    }

    /// What the initiator repeats in every message until the responder answers.
    struct PendingPreKey: Sendable {
        var preKeyId: UInt32?
        var signedPreKeyId: UInt32
        var baseKey: PublicKey
    }

    /// Protocol version (3).
    public internal(set) var sessionVersion: UInt8
    /// Our identity key.
    public internal(set) var localIdentity: IdentityKey
    /// Their identity key.
    public internal(set) var remoteIdentity: IdentityKey
    /// Our registration id.
    public internal(set) var localRegistrationId: UInt32 = 0
    /// Their registration id.
    public internal(set) var remoteRegistrationId: UInt32 = 0
    /// The initiator's X3DH base key, which identifies the session.
    public internal(set) var aliceBaseKey: PublicKey?

    var rootKey: RootKey
    var previousCounter: UInt32 = 0
    var senderRatchetKey: KeyPair
    var senderChainKey: ChainKey
    var receiverChains: [ReceiverChain] = []
    var pendingPreKey: PendingPreKey?

    init(
        sessionVersion: UInt8, localIdentity: IdentityKey, remoteIdentity: IdentityKey, rootKey: RootKey,
        senderRatchetKey: KeyPair, senderChainKey: ChainKey
    ) {
        self.sessionVersion = sessionVersion
        self.localIdentity = localIdentity
        self.remoteIdentity = remoteIdentity
        self.rootKey = rootKey
        self.senderRatchetKey = senderRatchetKey
        self.senderChainKey = senderChainKey
    }

    /// Whether the initiator still waits for the responder's first reply.
    public var hasPendingPreKey: Bool { pendingPreKey != nil }

    func receiverChainIndex(for ratchetKey: PublicKey) -> Int? {
        receiverChains.firstIndex { $0.ratchetKey == ratchetKey }
    }

    mutating func addReceiverChain(ratchetKey: PublicKey, chainKey: ChainKey, limit: Int) {
        receiverChains.append(ReceiverChain(ratchetKey: ratchetKey, chainKey: chainKey))
        if receiverChains.count > max(limit, 1) {
            receiverChains.removeFirst(receiverChains.count - max(limit, 1))
        }
    }
}
