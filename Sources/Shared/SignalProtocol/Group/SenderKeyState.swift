/// One generation of a sender's key in a group.
struct SenderKeyState: Sendable {
    let keyId: UInt32
    var chainKey: SenderChainKey
    let signingKey: PublicKey
    let signingPrivateKey: PrivateKey?
    var skippedKeys: [SenderMessageKey] = []
}
