import Testing

@testable import SignalProtocol

/// Sender keys on every store backend: a repeated distribution message never rewinds a chain.
struct GroupCipherStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func reprocessedDistributionDoesNotRewindTheChain(backend: StoreBackend) throws {
        let pair = try GroupPair(backend)
        let first = try pair.aliceGroup.encrypt([0], for: pair.name)
        #expect(try pair.bobGroup.decrypt(first, from: pair.name) == [0])

        let again = try SenderKeyDistributionMessage(serialized: pair.distribution.serialized)
        try pair.bobGroup.process(again, from: pair.name)
        let replay = #expect(throws: SignalProtocolError.self) { try pair.bobGroup.decrypt(first, from: pair.name) }
        #expect(replay?.code == .duplicateMessage)
        #expect(try pair.bobGroup.decrypt(pair.aliceGroup.encrypt([1], for: pair.name), from: pair.name) == [1])
    }

    @Test(arguments: StoreBackend.allCases)
    func distributionWithTheSameIdButAnotherSigningKeyReplacesTheState(backend: StoreBackend) throws {
        let pair = try GroupPair(backend)
        let other = try SenderKeyDistributionMessage(
            keyId: pair.distribution.keyId, iteration: 0, chainKey: Sodium.randomSecret(32),
            signingKey: KeyPair.generate().publicKey)
        try pair.bobGroup.process(other, from: pair.name)
        let error = #expect(throws: SignalProtocolError.self) {
            try pair.bobGroup.decrypt(pair.aliceGroup.encrypt([2], for: pair.name), from: pair.name)
        }
        #expect(error?.code == .invalidSignature)
    }
}
