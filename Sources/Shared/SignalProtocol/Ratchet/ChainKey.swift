/// A symmetric-ratchet chain key and its index.
package struct ChainKey: Sendable {
    private static let messageKeySeed: [UInt8] = [0x01]
    private static let chainKeySeed: [UInt8] = [0x02]

    /// The 32-byte chain key.
    package let key: SecretBytes
    /// How many steps this chain has taken.
    package let index: UInt32

    /// Wraps a chain key.
    package init(key: SecretBytes, index: UInt32) {
        self.key = key
        self.index = index
    }

    /// The next chain key: HMAC(CK, 0x02).
    package func next() -> ChainKey {
        ChainKey(key: Sodium.hmacSHA256Secret(key: key, Self.chainKeySeed), index: index &+ 1)
    }

    /// This step's message keys from HMAC(CK, 0x01).
    package func messageKeys() throws -> MessageKeys {
        try MessageKeys(seed: Sodium.hmacSHA256Secret(key: key, Self.messageKeySeed), counter: index)
    }
}
