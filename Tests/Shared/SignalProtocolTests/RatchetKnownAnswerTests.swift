import Testing

@testable import SignalProtocol

/// Vectors from libsignal-protocol-c's tests/test_ratchet.c (protocol version 3).
struct RatchetKnownAnswerTests {
    @Test func chainKeyStepAndMessageKeySplit() throws {
        let seed = [UInt8](hex: "8ab72d6f4cc5ac0d387eaf463378ddb28edd07385b1cb01250c715982e7ad48f")
        let chain = ChainKey(key: SecretBytes(seed), index: 0)
        let keys = try chain.messageKeys()
        #expect(
            keys.cipherKey.unsafeCopiedBytes.hex == "bf51e9d75e0e31031051f82a2491ffc084fa298b7793bd9db620056febf45217")
        #expect(keys.macKey.unsafeCopiedBytes.hex == "c6c77d6a73a354337a56435e34607dfe48e3ace14e77314dc6abc172e7a7030b")
        #expect(keys.counter == 0)
        let next = chain.next()
        #expect(next.key.unsafeCopiedBytes.hex == "28e8f8fee54b801eef7c5cfb2f17f32c7b334485bbb70fac6ec10342a246d15d")
        #expect(next.index == 1)
        #expect(try next.messageKeys().counter == 1)
    }

    static let bobIdentityPublic = "05f1f43874f6966956c2dd473f8fa15adeb71d1cb991b2341692324cefb1c5e626"
    static let bobIdentityPrivate = "4875cc69ddf8ea0719ec947d61081135868d5fd801f02c0225e516df2156605e"
    static let bobSignedPreKeyPublic = "05ac248a8f263be6863576eb0362e28c828f0107a3379d34bab1586bf8c770cd67"
    static let bobSignedPreKeyPrivate = "583900131fb727998b7803fe6ac22cc591f342e4e42a8c8d5d78194209b8d253"
    static let aliceBasePublic = "05472d1fb1a9862c3af6beaca8920277e2b26f4a79213ec7c906aeb35e03cf8950"
    static let aliceIdentityPublic = "05b4a8455660ada65b401007f615e654041746432e3339c6875149bceefcb42b4a"
    static let firstChain = "9797caca53c989bbe229a40ca7727010eb2604fc14945d77958a0aeda088b44d"

    static func pair(_ privateHex: String, _ publicHex: String) throws -> KeyPair {
        let pair = try KeyPair(
            privateKey: PrivateKey(secret: SecretBytes([UInt8](hex: privateHex.filter { $0 != " " }))))
        #expect(pair.publicKey.serialized.hex == publicHex)
        return pair
    }

    @Test func x3dhAsBobWithoutOneTimePreKey() throws {
        let bobIdentity = IdentityKeyPair(keyPair: try Self.pair(Self.bobIdentityPrivate, Self.bobIdentityPublic))
        let state = try X3DH.bobState(
            ourIdentity: bobIdentity,
            ourSignedPreKey: Self.pair(Self.bobSignedPreKeyPrivate, Self.bobSignedPreKeyPublic),
            ourOneTimePreKey: nil, theirIdentity: PublicKey(serialized: [UInt8](hex: Self.aliceIdentityPublic)),
            theirBaseKey: PublicKey(serialized: [UInt8](hex: Self.aliceBasePublic)))
        #expect(state.senderChainKey.key.unsafeCopiedBytes.hex == Self.firstChain)
        #expect(state.localIdentity == bobIdentity.identityKey)
    }

    /// libsignal-protocol-c tests/test_fingerprint.c `test_vectors_v0`.
    @Test func safetyNumberKnownAnswer() throws {
        let alice = try PublicKey(
            serialized: [UInt8](hex: "0506863bc66d02b40d27b8d49ca7c09e9239236f9d7d25d6fcca5ce13c7064d868"))
        let bob = try PublicKey(
            serialized: [UInt8](hex: "05f781b6fb32fed9ba1cf2de978d4d5da28dc34046ae814402b5c0dbd96fda907b"))
        let expected = "300354477692869396892869876765458257569162576843440918079131"
        let fromAlice = try SafetyNumber(
            localIdentifier: "+14152222222", localKey: alice, remoteIdentifier: "+14153333333", remoteKey: bob)
        let fromBob = try SafetyNumber(
            localIdentifier: "+14153333333", localKey: bob, remoteIdentifier: "+14152222222", remoteKey: alice)
        #expect(fromAlice.displayText == expected)
        #expect(fromBob.displayText == expected)
    }
}
