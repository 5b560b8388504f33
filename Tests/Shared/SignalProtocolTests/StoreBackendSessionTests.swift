import Testing

@testable import SignalProtocol

/// The key session scenarios, run against every store backend.
struct StoreBackendSessionTests {
    struct Rejected: Error {}

    @Test(arguments: StoreBackend.allCases, [true, false])
    func firstMessageOpensSessionAndReplyAcknowledgesIt(backend: StoreBackend, oneTime: Bool) throws {
        let (alice, bob) = try makeBackendPair(backend, oneTime: oneTime)
        let first = try alice.cipher(to: bob).encrypt(Array("hello bob".utf8))
        guard case .preKey(let opening) = first else {
            Issue.record("first message must be a PreKeySignalMessage")
            return
        }
        #expect(opening.preKeyId == (oneTime ? 31 : nil))
        let received = try CiphertextMessage(type: first.type, serialized: first.serialized)
        #expect(try bob.cipher(to: alice).decrypt(received) == Array("hello bob".utf8))
        #expect(try bob.store.loadPreKey(id: 31) == nil)
        #expect(try bob.store.identity(for: alice.address) == alice.identity.identityKey)
        #expect(try bob.cipher(to: alice).remoteRegistrationId() == alice.registrationId)

        let reply = try bob.cipher(to: alice).encrypt(Array("hi alice".utf8))
        guard case .whisper = reply else {
            Issue.record("responder replies with SignalMessages")
            return
        }
        #expect(try alice.cipher(to: bob).decrypt(reply) == Array("hi alice".utf8))
        guard case .whisper = try alice.cipher(to: bob).encrypt([1]) else {
            Issue.record("after a reply the initiator sends SignalMessages")
            return
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func randomConversationWithDropsAndReordering(backend: StoreBackend) throws {
        var rng = SeededGenerator(seed: 0xC0FFEE)
        let (alice, bob) = try makeBackendPair(backend)
        var toBob: [(message: CiphertextMessage, plaintext: [UInt8])] = []
        var toAlice: [(message: CiphertextMessage, plaintext: [UInt8])] = []
        var bobHasSession = false
        var delivered = 0
        for turn in 0..<120 {
            let aliceSends = !bobHasSession || Bool.random(using: &rng)
            let (sender, receiver) = aliceSends ? (alice, bob) : (bob, alice)
            for index in 0..<Int.random(in: 1...4, using: &rng) {
                let plaintext = Array("turn \(turn) message \(index)".utf8)
                let message = try sender.cipher(to: receiver).encrypt(plaintext)
                if aliceSends { toBob.append((message, plaintext)) } else { toAlice.append((message, plaintext)) }
            }
            var pending = aliceSends ? toBob : toAlice
            pending.shuffle(using: &rng)
            var keep: [(message: CiphertextMessage, plaintext: [UInt8])] = []
            for item in pending {
                let roll = Int.random(in: 0..<10, using: &rng)
                if roll == 0 { continue }
                if roll == 1 && turn % 2 == 0 {
                    keep.append(item)
                    continue
                }
                #expect(try receiver.cipher(to: sender).decrypt(item.message) == item.plaintext)
                delivered += 1
                if aliceSends { bobHasSession = true }
            }
            if aliceSends { toBob = keep } else { toAlice = keep }
        }
        #expect(delivered > 150)
    }

    @Test(arguments: StoreBackend.allCases)
    func replayIsRefusedAsDuplicate(backend: StoreBackend) throws {
        let (alice, bob) = try makeBackendPair(backend)
        let first = try alice.cipher(to: bob).encrypt([1])
        let second = try alice.cipher(to: bob).encrypt([2])
        #expect(try bob.cipher(to: alice).decrypt(second) == [2])
        #expect(try bob.cipher(to: alice).decrypt(first) == [1])
        for message in [first, second] {
            let error = #expect(throws: SignalProtocolError.self) { try bob.cipher(to: alice).decrypt(message) }
            #expect(error?.code == .duplicateMessage)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func failingCallerLeavesSessionAndPreKeyUntouchedAndRetrySucceeds(backend: StoreBackend) throws {
        let (alice, bob) = try makeBackendPair(backend)
        let first = try alice.cipher(to: bob).encrypt(Array("one".utf8))
        var seen: [UInt8] = []
        #expect(throws: Rejected.self) {
            try bob.cipher(to: alice).decrypt(first) { plaintext in
                seen = plaintext
                throw Rejected()
            }
        }
        #expect(seen == Array("one".utf8))
        #expect(try bob.store.loadSession(for: alice.address) == nil)
        #expect(try bob.store.loadPreKey(id: 31) != nil)
        #expect(try bob.store.identity(for: alice.address) == nil)
        #expect(try bob.cipher(to: alice).decrypt(first) == Array("one".utf8))
        #expect(try bob.store.loadPreKey(id: 31) == nil)

        let second = try alice.cipher(to: bob).encrypt(Array("two".utf8))
        let before = try bob.sessionBytes(with: alice)
        #expect(throws: Rejected.self) {
            try bob.cipher(to: alice).decrypt(second) { _ in throw Rejected() }
        }
        #expect(try bob.sessionBytes(with: alice) == before)
        #expect(try bob.cipher(to: alice).decrypt(second) { String(decoding: $0, as: UTF8.self) } == "two")
        #expect(try bob.sessionBytes(with: alice) != before)
    }

    @Test(arguments: StoreBackend.allCases)
    func changedIdentityIsRefusedUntilSaved(backend: StoreBackend) throws {
        let (alice, bob) = try makeBackendPair(backend)
        let impostor = try BackendDevice(name: "bob", backend: .inMemory)
        let error = #expect(throws: SignalProtocolError.self) {
            try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(
                bundle: impostor.bundle())
        }
        #expect(error?.code == .untrustedIdentity)
        #expect(try alice.store.saveIdentity(impostor.identity.identityKey, for: bob.address) == true)
        try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(bundle: impostor.bundle())
    }

    @Test(arguments: StoreBackend.allCases)
    func incomingSessionFromChangedIdentityIsRefusedAndNothingCommits(backend: StoreBackend) throws {
        let (alice, bob) = try makeBackendPair(backend)
        #expect(try bob.cipher(to: alice).decrypt(alice.cipher(to: bob).encrypt([1])) == [1])
        let reinstalled = try BackendDevice(name: "alice", backend: backend)
        try SessionBuilder(stores: reinstalled.store.stores, remoteAddress: bob.address)
            .process(bundle: bob.bundle(preKeyId: 40, signedPreKeyId: 9))
        let opening = try reinstalled.cipher(to: bob).encrypt([2])
        let error = #expect(throws: SignalProtocolError.self) { try bob.cipher(to: alice).decrypt(opening) }
        #expect(error?.code == .untrustedIdentity)
        #expect(try bob.store.loadPreKey(id: 40) != nil)
        #expect(try bob.store.saveIdentity(reinstalled.identity.identityKey, for: alice.address) == true)
        #expect(try bob.cipher(to: alice).decrypt(opening) == [2])
        #expect(try bob.store.loadPreKey(id: 40) == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func repeatedPreKeyMessageWithAnotherIdentityDoesNotChangeTheSavedIdentity(backend: StoreBackend) throws {
        let alice = try BackendDevice(name: "alice", backend: backend)
        let bob = try BackendDevice(name: "bob", backend: backend, policy: .acceptChanges)
        try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(bundle: bob.bundle())
        let first = try alice.cipher(to: bob).encrypt([1])
        guard case .preKey(let second) = try alice.cipher(to: bob).encrypt([2]) else {
            Issue.record("before a reply every message opens the session")
            return
        }
        #expect(try bob.cipher(to: alice).decrypt(first) == [1])
        // The identity field is outside the MAC: swap it and the inner message still verifies.
        let altered = try PreKeySignalMessage(
            serialized: PreKeySignalMessage(
                version: second.messageVersion, registrationId: second.registrationId, preKeyId: second.preKeyId,
                signedPreKeyId: second.signedPreKeyId, baseKey: second.baseKey,
                identityKey: IdentityKeyPair.generate().identityKey, message: second.message
            ).serialized)
        #expect(try bob.cipher(to: alice).decrypt(altered) { $0 } == [2])
        #expect(try bob.store.identity(for: alice.address) == alice.identity.identityKey)
        #expect(try bob.cipher(to: alice).decrypt(alice.cipher(to: bob).encrypt([3])) == [3])
    }

    @Test(arguments: StoreBackend.allCases)
    func simultaneousInitiationConverges(backend: StoreBackend) throws {
        let alice = try BackendDevice(name: "alice", backend: backend)
        let bob = try BackendDevice(name: "bob", backend: backend)
        try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(bundle: bob.bundle())
        try SessionBuilder(stores: bob.store.stores, remoteAddress: alice.address).process(bundle: alice.bundle())
        let fromAlice = try alice.cipher(to: bob).encrypt(Array("hi from alice".utf8))
        let fromBob = try bob.cipher(to: alice).encrypt(Array("hi from bob".utf8))
        #expect(try bob.cipher(to: alice).decrypt(fromAlice) == Array("hi from alice".utf8))
        #expect(try alice.cipher(to: bob).decrypt(fromBob) == Array("hi from bob".utf8))
        for round in 0..<6 {
            let a = try alice.cipher(to: bob).encrypt([UInt8(round)])
            #expect(try bob.cipher(to: alice).decrypt(a) == [UInt8(round)])
            let b = try bob.cipher(to: alice).encrypt([UInt8(round + 100)])
            #expect(try alice.cipher(to: bob).decrypt(b) == [UInt8(round + 100)])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func groupMembersDecryptOutOfOrderAndRefuseReplays(backend: StoreBackend) throws {
        let pair = try GroupPair(backend)
        let messages = try (0..<10).map { try pair.aliceGroup.encrypt([UInt8($0)], for: pair.name) }
        for index in [3, 0, 9, 1, 2, 8, 4, 5, 7, 6] {
            let wire = try SenderKeyMessage(serialized: messages[index].serialized)
            #expect(try pair.bobGroup.decrypt(wire, from: pair.name) == [UInt8(index)])
        }
        let replay = #expect(throws: SignalProtocolError.self) {
            try pair.bobGroup.decrypt(messages[4], from: pair.name)
        }
        #expect(replay?.code == .duplicateMessage)
    }
}
