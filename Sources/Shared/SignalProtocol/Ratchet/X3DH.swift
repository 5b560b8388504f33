/// X3DH key agreement and the initial Double Ratchet states, exactly as libsignal v3 builds them.
enum X3DH {
    /// The 32 bytes of 0xFF that libsignal prefixes to the DH outputs (a domain separator that
    /// makes the input never look like a valid curve point encoding).
    private static let discontinuity = [UInt8](repeating: 0xFF, count: 32)

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
        var agreements = [
            try ourIdentity.privateKey.agree(with: theirSignedPreKey),
            try ourBaseKey.privateKey.agree(with: theirIdentity),
            try ourBaseKey.privateKey.agree(with: theirSignedPreKey),
        ]
        if let theirOneTimePreKey { agreements.append(try ourBaseKey.privateKey.agree(with: theirOneTimePreKey)) }
        let (rootKey, chainKey) = try deriveKeys(agreements)
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
        var agreements = [
            try ourSignedPreKey.privateKey.agree(with: theirIdentity),
            try ourIdentity.privateKey.agree(with: theirBaseKey),
            try ourSignedPreKey.privateKey.agree(with: theirBaseKey),
        ]
        if let ourOneTimePreKey { agreements.append(try ourOneTimePreKey.privateKey.agree(with: theirBaseKey)) }
        let (rootKey, chainKey) = try deriveKeys(agreements)
        return SessionState(
            sessionVersion: CiphertextVersion.current, localIdentity: ourIdentity.identityKey,
            remoteIdentity: theirIdentity, rootKey: rootKey, senderRatchetKey: ourSignedPreKey,
            senderChainKey: chainKey)
    }
}
