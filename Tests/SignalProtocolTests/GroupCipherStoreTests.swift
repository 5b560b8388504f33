import Testing

@testable import SignalProtocol

/// Sender keys on every store backend: a repeated distribution message never rewinds a chain.
struct GroupCipherStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func reprocessedDistributionDoesNotRewindTheChain(backend: StoreBackend) throws {
        let alice = try BackendDevice(name: "alice", backend: backend)
        let bob = try BackendDevice(name: "bob", backend: backend)
        let name = SenderKeyName(groupId: "family-chat", sender: alice.address)
        let aliceGroup = GroupCipher(store: alice.store)
        let bobGroup = GroupCipher(store: bob.store)
        let distribution = try aliceGroup.distributionMessage(for: name)
        try bobGroup.process(SenderKeyDistributionMessage(serialized: distribution.serialized), from: name)
        let first = try aliceGroup.encrypt([0], for: name)
        #expect(try bobGroup.decrypt(first, from: name) == [0])

        try bobGroup.process(SenderKeyDistributionMessage(serialized: distribution.serialized), from: name)
        let replay = #expect(throws: SignalProtocolError.self) { try bobGroup.decrypt(first, from: name) }
        #expect(replay?.code == .duplicateMessage)
        #expect(try bobGroup.decrypt(aliceGroup.encrypt([1], for: name), from: name) == [1])
    }

    @Test(arguments: StoreBackend.allCases)
    func distributionWithTheSameIdButAnotherSigningKeyReplacesTheState(backend: StoreBackend) throws {
        let alice = try BackendDevice(name: "alice", backend: backend)
        let bob = try BackendDevice(name: "bob", backend: backend)
        let name = SenderKeyName(groupId: "family-chat", sender: alice.address)
        let aliceGroup = GroupCipher(store: alice.store)
        let bobGroup = GroupCipher(store: bob.store)
        let distribution = try aliceGroup.distributionMessage(for: name)
        try bobGroup.process(distribution, from: name)
        let other = try SenderKeyDistributionMessage(
            keyId: distribution.keyId, iteration: 0, chainKey: Sodium.randomSecret(32),
            signingKey: KeyPair.generate().publicKey)
        try bobGroup.process(other, from: name)
        let error = #expect(throws: SignalProtocolError.self) {
            try bobGroup.decrypt(aliceGroup.encrypt([2], for: name), from: name)
        }
        #expect(error?.code == .invalidSignature)
    }
}
