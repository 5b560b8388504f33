/// HKDF(seed, info "WhisperGroup", 48) → IV 16, cipher key 32 (libsignal's order).
struct SenderMessageKey: Sendable {
    let iteration: UInt32
    let iv: SecretBytes
    let cipherKey: SecretBytes

    init(iteration: UInt32, seed: SecretBytes) throws {
        let derived = try HKDF.deriveSecrets(inputKeyMaterial: seed, info: Array("WhisperGroup".utf8), length: 48)
        self.iteration = iteration
        iv = derived.slice(0..<16)
        cipherKey = derived.slice(16..<48)
    }

    init(iteration: UInt32, iv: SecretBytes, cipherKey: SecretBytes) {
        self.iteration = iteration
        self.iv = iv
        self.cipherKey = cipherKey
    }
}
