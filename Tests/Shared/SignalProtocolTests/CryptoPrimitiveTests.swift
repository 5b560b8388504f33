import Testing

@testable import SignalProtocol

struct CryptoPrimitiveTests {
    struct HKDFVector: Sendable, CustomStringConvertible {
        let name: String
        let ikm: [UInt8]
        let salt: [UInt8]
        let info: [UInt8]
        let okm: String
        var description: String { name }
    }

    /// RFC 5869 appendix A, test cases 1-3 (SHA-256).
    static let rfc5869: [HKDFVector] = [
        HKDFVector(
            name: "A.1", ikm: [UInt8](repeating: 0x0b, count: 22), salt: Array(0x00...0x0c), info: Array(0xf0...0xf9),
            okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        HKDFVector(
            name: "A.2", ikm: Array(0x00...0x4f), salt: Array(0x60...0xaf), info: Array(0xb0...0xff),
            okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
                + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
                + "cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        HKDFVector(
            name: "A.3", ikm: [UInt8](repeating: 0x0b, count: 22), salt: [], info: [],
            okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test(arguments: rfc5869)
    func hkdfMatchesRFC5869(_ vector: HKDFVector) throws {
        let expected = [UInt8](hex: vector.okm)
        let okm = try HKDF.deriveSecrets(
            inputKeyMaterial: vector.ikm, salt: vector.salt, info: vector.info, length: expected.count)
        #expect(okm.hex == vector.okm)
    }

    @Test func hkdfRejectsOversizedOutput() {
        #expect(throws: SignalProtocolError.self) {
            try HKDF.deriveSecrets(inputKeyMaterial: [1], info: [], length: 255 * 32 + 1)
        }
    }

    @Test func sha2AndHMACKnownAnswers() {
        #expect(
            Sodium.sha256(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Sodium.sha512(Array("abc".utf8)).hex
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        // RFC 4231 test case 2.
        #expect(
            Sodium.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)).hex
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // RFC 4231 test cases 1 and 6 (a key longer than a block), through OpenSSL.
        #expect(
            Sodium.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8)).hex
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            Sodium.hmacSHA256(
                key: [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
            ).hex
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // An empty key takes the libsodium path; the value is Python's hmac module's.
        #expect(
            Sodium.hmacSHA256(key: [], Array("empty key".utf8)).hex
                == "bf6e6a0f34cd9fdf69c67b8c62969c87cd4f783d4665217df03f062dc4a0406e")
    }

    @Test func x25519AgreesBothWays() throws {
        let a = try KeyPair.generate()
        let b = try KeyPair.generate()
        #expect(try a.privateKey.agree(with: b.publicKey) == b.privateKey.agree(with: a.publicKey))
    }

    @Test func x25519RefusesLowOrderPoint() throws {
        let zero = try PublicKey(rawBytes: [UInt8](repeating: 0, count: 32))
        #expect(throws: SignalProtocolError.self) { try PrivateKey.generate().agree(with: zero) }
    }

    @Test func xeddsaSignsAndVerifies() throws {
        let pair = try KeyPair.generate()
        let message = Array("signed prekey".utf8)
        let signature = try pair.privateKey.sign(message)
        #expect(signature.count == 64)
        #expect(pair.publicKey.verifySignature(signature, for: message))
        #expect(!pair.publicKey.verifySignature(signature, for: message + [0]))
        var bad = signature
        bad[10] ^= 1
        #expect(!pair.publicKey.verifySignature(bad, for: message))
        #expect(!(try KeyPair.generate()).publicKey.verifySignature(signature, for: message))
    }

    @Test func aesCBCRoundTripsWithPKCS7() throws {
        let key = try Sodium.randomSecret(32)
        let iv = try Sodium.randomSecret(16)
        for length in [0, 1, 15, 16, 17, 100] {
            let plaintext = [UInt8](repeating: 0x42, count: length)
            let ciphertext = try AESCBC.encrypt(key: key, iv: iv, plaintext: plaintext)
            #expect(ciphertext.count == (length / 16 + 1) * 16)
            #expect(try AESCBC.decrypt(key: key, iv: iv, ciphertext: ciphertext) == plaintext)
        }
        #expect(throws: SignalProtocolError.self) { try AESCBC.decrypt(key: key, iv: iv, ciphertext: [1, 2, 3]) }
    }

    @Test func secretsNeverPrint() throws {
        let secret = SecretBytes([1, 2, 3, 0xAB])
        #expect(String(describing: secret) == "SecretBytes(4 bytes)")
        #expect(!String(reflecting: try PrivateKey.generate()).contains("0x"))
        #expect(String(describing: try PrivateKey.generate()) == "PrivateKey(redacted)")
    }

    @Test func publicKeySerializationIsTypeBytePlus32() throws {
        let key = try KeyPair.generate().publicKey
        #expect(key.serialized.count == 33 && key.serialized[0] == 0x05)
        #expect(try PublicKey(serialized: key.serialized) == key)
        #expect(throws: SignalProtocolError.self) { try PublicKey(serialized: [0x06] + key.rawBytes) }
        #expect(throws: SignalProtocolError.self) { try PublicKey(serialized: key.serialized.dropLast()) }
    }

    @Test func signedPreKeySignatureCoversSerializedKey() throws {
        let identity = try IdentityKeyPair.generate()
        let signed = try SignedPreKeyRecord.generate(identity: identity, id: 5, timestamp: 42)
        #expect(identity.identityKey.verifySignature(signed.signature, for: signed.keyPair.publicKey.serialized))
    }

    @Test func keyHelperRanges() throws {
        for _ in 0..<100 {
            let id = try KeyHelper.generateRegistrationId()
            #expect((1...16380).contains(id))
        }
        let preKeys = try KeyHelper.generatePreKeys(start: KeyHelper.preKeyIdModulus - 1, count: 3)
        #expect(preKeys.map(\.id) == [KeyHelper.preKeyIdModulus, 1, 2])
    }
}

struct SecretBufferTests {
    @Test func writerWipesTheBufferItHandsOver() throws {
        let secret = try Sodium.randomSecret(32)
        var writer = ProtobufWriter()
        for field in 1...20 { writer.writeSecret(UInt32(field), secret) }
        let record = writer.takeSecret()
        #expect(record.count == 15 * 34 + 5 * 35)  // fields 16...20 take a 2-byte tag
        let retained = writer.retainedStorage
        #expect(retained.count >= record.count)
        #expect(retained.allSatisfy { $0 == 0 })
    }

    @Test func readerSlicesSecretsFromTheRecordItReads() throws {
        var writer = ProtobufWriter()
        writer.writeUInt32(1, 7)
        let key = try Sodium.randomSecret(32)
        writer.writeSecret(2, key)
        var reader = ProtobufReader(secret: writer.takeSecret())
        #expect(try reader.readTag()?.field == 1)
        #expect(try reader.readUInt32() == 7)
        #expect(try reader.readTag()?.field == 2)
        #expect(try reader.readSecret() == key)
        #expect(reader.isAtEnd)
    }
}
