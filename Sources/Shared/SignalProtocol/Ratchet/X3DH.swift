/// X3DH key agreement and the initial Double Ratchet states, exactly as libsignal v3 builds them.
enum X3DH {
    /// The 32 bytes of 0xFF that libsignal prefixes to the DH outputs (a domain separator that
    /// makes the input never look like a valid curve point encoding).
    private static let discontinuity = [UInt8](repeating: 0xFF, count: 32)

    /// One Diffie-Hellman agreement of X3DH: our private key with their public key.
    private typealias Agreement = (ours: PrivateKey, theirs: PublicKey)

    /// Agrees DH1, DH2, DH3 and, when a one-time prekey is used, DH4 in that order, then derives
    /// the root and first chain keys from them (`deriveKeys(_:)`). Both sides call it with the
    /// mirror pairs, so both reach the same keys.
    private static func deriveKeys(agreeing pairs: [Agreement], oneTime: Agreement?) throws -> (RootKey, ChainKey) {
        let all = oneTime.map { pairs + [$0] } ?? pairs
        return try deriveKeys(all.map { try $0.ours.agree(with: $0.theirs) })
    }

    /// HKDF(0xFF*32 || DH1 || DH2 || DH3 [|| DH4], zero salt, "WhisperText") → root, chain.
    static func deriveKeys(_ agreements: [SecretBytes]) throws -> (RootKey, ChainKey) {
        let secret = SecretBytes(count: discontinuity.count + 32 * agreements.count) { out in
            discontinuity.withUnsafeBytes { out.copyMemory(from: $0) }
            for (index, agreement) in agreements.enumerated() {
                agreement.withUnsafeBytes {
                    UnsafeMutableRawBufferPointer(rebasing: out[(32 + 32 * index)...]).copyMemory(from: $0)
                }
            }
        }
        let derived = try HKDF.deriveSecrets(inputKeyMaterial: secret, info: Array("WhisperText".utf8), length: 64)
        return (RootKey(key: derived.slice(0..<32)), ChainKey(key: derived.slice(32..<64), index: 0))
    }

    /// The initiator's state: DH(IKa, SPKb), DH(EKa, IKb), DH(EKa, SPKb) [, DH(EKa, OPKb)], then an
    /// immediate DH-ratchet step to a fresh sending key; Bob's signed prekey is the first receiving chain.
    static func aliceState(
        ourIdentity: IdentityKeyPair, ourBaseKey: KeyPair, theirIdentity: IdentityKey, theirSignedPreKey: PublicKey,
        theirOneTimePreKey: PublicKey?, configuration: SessionConfiguration
    ) throws -> SessionState {
        let sendingRatchetKey = try KeyPair.generate()
        let (rootKey, chainKey) = try deriveKeys(
            agreeing: [
                (ourIdentity.privateKey, theirSignedPreKey), (ourBaseKey.privateKey, theirIdentity),
                (ourBaseKey.privateKey, theirSignedPreKey),
            ],
            oneTime: theirOneTimePreKey.map { (ourBaseKey.privateKey, $0) })
        let (sendingRoot, sendingChain) = try rootKey.createChain(
            theirRatchetKey: theirSignedPreKey, ourRatchetKey: sendingRatchetKey)
        var state = SessionState(
            sessionVersion: CiphertextVersion.current, localIdentity: ourIdentity.identityKey,
            remoteIdentity: theirIdentity, rootKey: sendingRoot, senderRatchetKey: sendingRatchetKey,
            senderChainKey: sendingChain)
        state.addReceiverChain(
            ratchetKey: theirSignedPreKey, chainKey: chainKey, limit: configuration.maxReceiverChains)
        return state
    }

    /// The responder's state: the mirror DHs; the signed prekey is the first sending ratchet key.
    static func bobState(
        ourIdentity: IdentityKeyPair, ourSignedPreKey: KeyPair, ourOneTimePreKey: KeyPair?,
        theirIdentity: IdentityKey, theirBaseKey: PublicKey
    ) throws -> SessionState {
        let (rootKey, chainKey) = try deriveKeys(
            agreeing: [
                (ourSignedPreKey.privateKey, theirIdentity), (ourIdentity.privateKey, theirBaseKey),
                (ourSignedPreKey.privateKey, theirBaseKey),
            ],
            oneTime: ourOneTimePreKey.map { ($0.privateKey, theirBaseKey) })
        return SessionState(
            sessionVersion: CiphertextVersion.current, localIdentity: ourIdentity.identityKey,
            remoteIdentity: theirIdentity, rootKey: rootKey, senderRatchetKey: ourSignedPreKey,
            senderChainKey: chainKey)
    }
}
