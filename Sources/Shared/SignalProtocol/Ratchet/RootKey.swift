/// The Double Ratchet root key.
package struct RootKey: Sendable {
    /// The 32-byte root key.
    package let key: SecretBytes

    /// Wraps a root key.
    package init(key: SecretBytes) { self.key = key }

    /// One DH-ratchet step: HKDF(DH(ours, theirs), salt = root key, info "WhisperRatchet", 64)
    /// gives the next root key and a new chain key at index 0.
    package func createChain(theirRatchetKey: PublicKey, ourRatchetKey: KeyPair) throws -> (RootKey, ChainKey) {
        let shared = try ourRatchetKey.privateKey.agree(with: theirRatchetKey)
        let derived = try HKDF.deriveSecrets(
            inputKeyMaterial: shared, salt: key, info: Array("WhisperRatchet".utf8), length: 64)
        return (RootKey(key: derived.slice(0..<32)), ChainKey(key: derived.slice(32..<64), index: 0))
    }
}
