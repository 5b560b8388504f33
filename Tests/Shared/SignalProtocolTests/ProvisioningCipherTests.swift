import Testing

@testable import SignalProtocol

/// The provision a device of an account seals to a device being linked.
struct ProvisioningCipherTests {
    let identity: IdentityKeyPair
    let provision: ProvisionMessage

    init() throws {
        identity = try IdentityKeyPair.generate()
        provision = ProvisionMessage(
            identity: identity, accountId: "5b1c2d3e-0000-4000-8000-000000000001", linkingToken: "token-7f")
    }

    @Test func theEphemeralKeysHolderOpensWhatWasSealedToIt() throws {
        let ephemeral = try KeyPair.generate()
        let box = try ProvisioningCipher.seal(provision, to: ephemeral.publicKey)
        let opened = try ProvisioningCipher.open(box, with: ephemeral)
        #expect(opened.accountId == provision.accountId)
        #expect(opened.linkingToken == "token-7f")
        #expect(opened.identity.identityKey == identity.identityKey)
        #expect(opened.identity.privateKey.secret == identity.privateKey.secret)
        #expect(box.count == provision.serialized().count + ProvisioningCipher.overhead)
    }

    @Test func theBoxHoldsNeitherTheKeyNorTheTokenInTheClearAndDiffersEachTime() throws {
        let ephemeral = try KeyPair.generate()
        let one = try ProvisioningCipher.seal(provision, to: ephemeral.publicKey)
        let two = try ProvisioningCipher.seal(provision, to: ephemeral.publicKey)
        #expect(one != two, "a fresh sender key per box")
        let secret = identity.privateKey.secret.unsafeCopiedBytes
        for needle in [secret, identity.identityKey.rawBytes, Array("token-7f".utf8)] {
            #expect(!contains(one, needle))
        }
    }

    @Test func anotherKeyOrOneFlippedBitDoesNotOpen() throws {
        let ephemeral = try KeyPair.generate()
        let box = try ProvisioningCipher.seal(provision, to: ephemeral.publicKey)
        #expect(throws: SignalProtocolError.self) { try ProvisioningCipher.open(box, with: try KeyPair.generate()) }
        for index in [0, 32, box.count - 1] {
            var altered = box
            altered[index] ^= 0x01
            let error = #expect(throws: SignalProtocolError.self) {
                try ProvisioningCipher.open(altered, with: ephemeral)
            }
            #expect(error?.code == .invalidMAC)
        }
        #expect(throws: SignalProtocolError.self) {
            try ProvisioningCipher.open(Array(box.prefix(ProvisioningCipher.overhead)), with: ephemeral)
        }
    }

    @Test func aProvisionWhosePublicKeyIsNotItsPrivateKeysIsRefused() throws {
        let other = try IdentityKeyPair.generate()
        var writer = ProtobufWriter()
        writer.writeBytes(1, other.identityKey.serialized)
        writer.writeSecret(2, identity.privateKey.secret)
        writer.writeBytes(3, Array("account".utf8))
        writer.writeBytes(4, Array("token".utf8))
        writer.writeUInt32(9, 1)
        let error = #expect(throws: SignalProtocolError.self) {
            try ProvisionMessage(serialized: writer.takeSecret())
        }
        #expect(error?.code == .invalidKey)
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
