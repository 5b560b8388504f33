/// The per-message keys derived from one chain step.
package struct MessageKeys: Sendable {
    /// AES-256 key.
    package let cipherKey: SecretBytes
    /// HMAC-SHA256 key for the message MAC.
    package let macKey: SecretBytes
    /// AES-CBC IV.
    package let iv: SecretBytes
    /// The chain index these keys belong to.
    package let counter: UInt32

    /// Splits HKDF(seed, info "WhisperMessageKeys", 80) into cipher key 32, MAC key 32, IV 16.
    package init(seed: SecretBytes, counter: UInt32) throws {
        let derived = try HKDF.deriveSecrets(
            inputKeyMaterial: seed, info: Array("WhisperMessageKeys".utf8), length: 80)
        cipherKey = derived.slice(0..<32)
        macKey = derived.slice(32..<64)
        iv = derived.slice(64..<80)
        self.counter = counter
    }

    init(cipherKey: SecretBytes, macKey: SecretBytes, iv: SecretBytes, counter: UInt32) {
        self.cipherKey = cipherKey
        self.macKey = macKey
        self.iv = iv
        self.counter = counter
    }
}
