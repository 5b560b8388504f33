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

    /// PyNaCl's reference vector for `crypto_box_seal` (tests/data/sealed_box_ref.txt): the
    /// recipient is RFC 7748's Alice, the box was made elsewhere.
    @Test func theSealedBoxOpensAReferenceVectorMadeElsewhere() throws {
        let secret = SecretBytes([UInt8](hex: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let publicKey = [UInt8](hex: "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(try Sodium.x25519Base(secret) == publicKey)
        let plaintext = [UInt8](
            hex: "be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffce5ecbaaf33bd751a1ac728d45e6c6129"
                + "6cdc3c01233561f41db66cce314adb310e3be8250c46f06dceea3a7fa1348057e2f6556ad6b1318a024a838f21af1f"
                + "de048977eb48f59ffd4924ca1c60902e52f0a089bc76897040e082f937763848645e0705")
        let box = [UInt8](
            hex: "199c808806a62c1be56951023ad3396b0ce0ef2c5b9ca688ac96d2d06ca43f65d314400cc9bbefb23dd26f824c9cb553"
                + "f81e8c894ea9a553f4d777c77b66d5a6925da3f5961c5f7147172db5597ac14210066ee3ee13e6230a9a9610e9cddb"
                + "f24094f54fbbf6694c08a436cec39ff5a373656d9584f4df9dd8c817e2e597540628d0ee21a6524a3fcf3eabdc0968"
                + "390bd260a47366ead7f71cc2e774d411d96f3497c7e10291937bc16dc46a111686b85a8c86")
        let opened = try Sodium.openSealedBox(box, publicKey: publicKey, privateKey: secret)
        #expect(opened.unsafeCopiedBytes == plaintext)
        #expect(box.count == plaintext.count + Sodium.sealedBoxOverhead)
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
