import Synchronization
import Testing

@testable import SignalProtocol

/// A store that keeps only serialised bytes, so every step round-trips through the storage format.
final class SerializingStore: SessionStore, SenderKeyStore {
    private let sessions = Mutex<[ProtocolAddress: SecretBytes]>([:])
    private let senderKeys = Mutex<[SenderKeyName: SecretBytes]>([:])

    func loadSession(for address: ProtocolAddress) throws -> SessionRecord? {
        try sessions.withLock { $0[address] }.map { try SessionRecord(serialized: $0) }
    }
    func storeSession(_ record: SessionRecord, for address: ProtocolAddress) throws {
        let bytes = record.serialized()
        sessions.withLock { $0[address] = bytes }
    }
    func loadSenderKey(for name: SenderKeyName) throws -> SenderKeyRecord? {
        try senderKeys.withLock { $0[name] }.map { try SenderKeyRecord(serialized: $0) }
    }
    func storeSenderKey(_ record: SenderKeyRecord, for name: SenderKeyName) throws {
        let bytes = record.serialized()
        senderKeys.withLock { $0[name] = bytes }
    }
}

struct StorageFormatTests {
    func stores(_ device: TestDevice, _ sessions: SerializingStore) -> SignalStores {
        SignalStores(sessions: sessions, preKeys: device.store, signedPreKeys: device.store, identities: device.store)
    }

    @Test func conversationSurvivesSerialisationAtEveryStep() throws {
        var rng = SeededGenerator(seed: 42)
        let alice = try TestDevice(name: "alice")
        let bob = try TestDevice(name: "bob")
        let aliceSessions = SerializingStore()
        let bobSessions = SerializingStore()
        try SessionBuilder(stores: stores(alice, aliceSessions), remoteAddress: bob.address).process(
            bundle: bob.bundle())
        let toBob = SessionCipher(stores: stores(alice, aliceSessions), remoteAddress: bob.address)
        let toAlice = SessionCipher(stores: stores(bob, bobSessions), remoteAddress: alice.address)
        _ = try toAlice.decrypt(toBob.encrypt([0]))
        for round in 0..<60 {
            let aliceSends = Bool.random(using: &rng)
            var batch = try (0..<Int.random(in: 1...5, using: &rng)).map { index -> (CiphertextMessage, [UInt8]) in
                let plaintext = Array("r\(round)m\(index)".utf8)
                return (try (aliceSends ? toBob : toAlice).encrypt(plaintext), plaintext)
            }
            batch.shuffle(using: &rng)
            if batch.count > 2 { batch.removeLast() }  // one lost, its key stays stored
            for (message, plaintext) in batch {
                #expect(try (aliceSends ? toAlice : toBob).decrypt(message) == plaintext)
            }
        }
        let record = try #require(try bobSessions.loadSession(for: alice.address))
        #expect(record.currentState?.receiverChains.isEmpty == false)
    }

    @Test func keyRecordsRoundTrip() throws {
        let identity = try IdentityKeyPair.generate()
        let restored = try IdentityKeyPair(serialized: identity.serialized())
        #expect(restored.identityKey == identity.identityKey)
        #expect(restored.privateKey.secret == identity.privateKey.secret)

        let preKey = try KeyHelper.generatePreKeys(start: 9, count: 1)[0]
        let preKeyCopy = try PreKeyRecord(serialized: preKey.serialized())
        #expect(preKeyCopy.id == preKey.id && preKeyCopy.keyPair.publicKey == preKey.keyPair.publicKey)

        let signed = try SignedPreKeyRecord.generate(identity: identity, id: 4, timestamp: 1_234)
        let signedCopy = try SignedPreKeyRecord(serialized: signed.serialized())
        #expect(signedCopy.signature == signed.signature && signedCopy.timestamp == 1_234)
        #expect(signedCopy.keyPair.publicKey == signed.keyPair.publicKey)
    }

    @Test func groupStateSurvivesSerialisation() throws {
        let alice = try TestDevice(name: "alice")
        let name = SenderKeyName(groupId: "g", sender: alice.address)
        let aliceGroup = GroupCipher(store: SerializingStore())
        let bobGroup = GroupCipher(store: SerializingStore())
        try bobGroup.process(aliceGroup.distributionMessage(for: name), from: name)
        let messages = try (0..<6).map { try aliceGroup.encrypt([UInt8($0)], for: name) }
        for index in [5, 1, 0, 3, 2, 4] { #expect(try bobGroup.decrypt(messages[index], from: name) == [UInt8(index)]) }
    }

    @Test func corruptedRecordsFailCleanly() throws {
        let (alice, bob) = try makePair()
        _ = try alice.cipher(to: bob).encrypt([1])
        let bytes = try #require(alice.store.loadSession(for: bob.address)).serialized().unsafeCopiedBytes
        let storageCodes: Set<SignalProtocolError.Code> = [.invalidProtobuf, .invalidKey, .unknownVersion]
        // The format version (2 bytes) comes first, then one length-delimited current state: every other
        // prefix cuts a field short.
        for length in 0..<bytes.count where length != 2 {
            let error = #expect(throws: SignalProtocolError.self) {
                try SessionRecord(serialized: SecretBytes(bytes.prefix(length)))
            }
            #expect(
                error.map { storageCodes.contains($0.code) } == true, "prefix \(length): \(String(describing: error))")
        }
        #expect(try SessionRecord(serialized: SecretBytes(bytes.prefix(2))).isFresh)
        var rng = SeededGenerator(seed: 5)
        var refused = 0
        for _ in 0..<500 {
            var corrupted = bytes
            corrupted[Int.random(in: 0..<corrupted.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            // A change inside a key's bytes still decodes (the store's encryption catches those); a change to
            // the structure must be refused with a storage code, never another error or a crash.
            do {
                _ = try SessionRecord(serialized: SecretBytes(corrupted))
            } catch let error as SignalProtocolError {
                #expect(storageCodes.contains(error.code), "\(error)")
                refused += 1
            }
        }
        #expect(refused > 100)
        #expect(throws: SignalProtocolError.self) { try SessionRecord(serialized: SecretBytes([0x78, 0x02])) }
    }
}
