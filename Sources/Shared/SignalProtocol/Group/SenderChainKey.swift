/// One step of a sender-key chain: HMAC(CK, 0x01) seeds the message key, HMAC(CK, 0x02) is the next CK.
struct SenderChainKey: Sendable {
    let iteration: UInt32
    let seed: SecretBytes

    func next() -> SenderChainKey {
        SenderChainKey(iteration: iteration &+ 1, seed: Sodium.hmacSHA256Secret(key: seed, [0x02]))
    }

    func messageKey() throws -> SenderMessageKey {
        try SenderMessageKey(iteration: iteration, seed: Sodium.hmacSHA256Secret(key: seed, [0x01]))
    }
}
