import Testing

@testable import SignalProtocol

struct AttachmentCipherTests {
    @Test(arguments: [0, 1, 541, 542, 10_000, 100_003])
    func roundTripsAndHidesExactSize(length: Int) throws {
        let key = try AttachmentCipher.generateKey()
        let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let sealed = try AttachmentCipher.encrypt(plaintext, key: key)
        #expect(sealed.blob.count >= 16 + AttachmentCipher.paddedLength(for: length) + 32)
        #expect(sealed.digest == Sodium.sha256(sealed.blob))
        let opened = try AttachmentCipher.decrypt(
            sealed.blob, key: key, digest: sealed.digest, plaintextLength: sealed.plaintextLength)
        #expect(opened == plaintext)
    }

    @Test func tamperingAndWrongKeysFail() throws {
        let key = try AttachmentCipher.generateKey()
        let sealed = try AttachmentCipher.encrypt(Array("photo".utf8), key: key)
        var flipped = sealed.blob
        flipped[20] ^= 1
        let digestError = #expect(throws: SignalProtocolError.self) {
            try AttachmentCipher.decrypt(flipped, key: key, digest: sealed.digest, plaintextLength: 5)
        }
        #expect(digestError?.code == .invalidMAC)
        let macError = #expect(throws: SignalProtocolError.self) {
            try AttachmentCipher.decrypt(
                flipped, key: key, digest: Sodium.sha256(flipped), plaintextLength: 5)
        }
        #expect(macError?.code == .invalidMAC)
        #expect(throws: SignalProtocolError.self) {
            try AttachmentCipher.decrypt(
                sealed.blob, key: AttachmentCipher.generateKey(), digest: sealed.digest, plaintextLength: 5)
        }
        #expect(throws: SignalProtocolError.self) {
            try AttachmentCipher.decrypt(sealed.blob, key: key, digest: sealed.digest, plaintextLength: 100_000)
        }
    }

    @Test func paddingBuckets() {
        #expect(AttachmentCipher.paddedLength(for: 1) == 541)
        #expect(AttachmentCipher.paddedLength(for: 541) == 541)
        let size = AttachmentCipher.paddedLength(for: 1_000_000)
        #expect(size >= 1_000_000 && size < 1_050_001)
    }
}
