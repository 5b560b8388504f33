import Testing

@testable import SignalProtocol

struct SessionCipherTests {
    @Test(arguments: [true, false])
    func firstMessageOpensSessionAndReplyAcknowledgesIt(oneTime: Bool) throws {
        let (alice, bob) = try makePair(oneTime: oneTime)
        let first = try alice.cipher(to: bob).encrypt(Array("hello bob".utf8))
        guard case .preKey(let preKeyMessage) = first else {
            Issue.record("first message must be a PreKeySignalMessage")
            return
        }
        #expect(preKeyMessage.preKeyId == (oneTime ? 31 : nil))
        #expect(first.serialized[0] == 0x33)
        let received = try CiphertextMessage(type: first.type, serialized: first.serialized)
        #expect(try bob.cipher(to: alice).decrypt(received) == Array("hello bob".utf8))
        #expect(bob.store.loadPreKey(id: 31) == nil)
        #expect(bob.store.identity(for: alice.address) == alice.identity.identityKey)
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

    @Test func randomConversationWithDropsAndReordering() throws {
        var rng = SeededGenerator(seed: 0xC0FFEE)
        let (alice, bob) = try makePair()
        struct InFlight {
            let message: CiphertextMessage
            let plaintext: [UInt8]
        }
        var toBob: [InFlight] = []
        var toAlice: [InFlight] = []
        var bobHasSession = false
        var delivered = 0
        for turn in 0..<300 {
            let aliceSends = !bobHasSession || Bool.random(using: &rng)
            let (sender, receiver) = aliceSends ? (alice, bob) : (bob, alice)
            for index in 0..<Int.random(in: 1...4, using: &rng) {
                let plaintext = Array("turn \(turn) message \(index)".utf8)
                let message = try sender.cipher(to: receiver).encrypt(plaintext)
                if aliceSends {
                    toBob.append(.init(message: message, plaintext: plaintext))
                } else {
                    toAlice.append(.init(message: message, plaintext: plaintext))
                }
            }
            // The receiver gets most pending messages in random order; some are lost, some wait one round.
            var pending = aliceSends ? toBob : toAlice
            pending.shuffle(using: &rng)
            var keep: [InFlight] = []
            for item in pending {
                let roll = Int.random(in: 0..<10, using: &rng)
                if roll == 0 { continue }
                if roll == 1 && turn % 2 == 0 {
                    keep.append(item)
                    continue
                }
                let plaintext = try receiver.cipher(to: sender).decrypt(item.message)
                #expect(plaintext == item.plaintext)
                delivered += 1
                if aliceSends { bobHasSession = true }
            }
            if aliceSends { toBob = keep } else { toAlice = keep }
        }
        #expect(delivered > 400)
    }

    @Test func replayIsRefusedAsDuplicate() throws {
        let (alice, bob) = try makePair()
        let first = try alice.cipher(to: bob).encrypt([1])
        let second = try alice.cipher(to: bob).encrypt([2])
        #expect(try bob.cipher(to: alice).decrypt(second) == [2])
        #expect(try bob.cipher(to: alice).decrypt(first) == [1])
        for message in [first, second] {
            let error = #expect(throws: SignalProtocolError.self) { try bob.cipher(to: alice).decrypt(message) }
            #expect(error?.code == .duplicateMessage)
        }
    }

    @Test func jumpPastLimitIsRefusedAndBoundaryAccepted() throws {
        let configuration = SessionConfiguration(maxForwardJump: 10, maxSkippedKeysPerChain: 5)
        let (alice, bob) = try makePair(configuration: configuration)
        let aliceCipher = alice.cipher(to: bob, configuration: configuration)
        let bobCipher = bob.cipher(to: alice, configuration: configuration)
        let messages = try (0..<25).map { try aliceCipher.encrypt([UInt8($0)]) }
        let error = #expect(throws: SignalProtocolError.self) { try bobCipher.decrypt(messages[11]) }
        #expect(error?.code == .counterTooFarAhead)
        #expect(try bobCipher.decrypt(messages[10]) == [10])
        // Only the newest 5 skipped keys are kept.
        #expect(try bobCipher.decrypt(messages[9]) == [9])
        #expect(try bobCipher.decrypt(messages[5]) == [5])
        let evicted = #expect(throws: SignalProtocolError.self) { try bobCipher.decrypt(messages[4]) }
        #expect(evicted?.code == .duplicateMessage)
        #expect(try bobCipher.decrypt(messages[21]) == [21])
    }

    @Test func defaultLimitIs2000() throws {
        let (alice, bob) = try makePair()
        let first = try alice.cipher(to: bob).encrypt([0])
        #expect(try bob.cipher(to: alice).decrypt(first) == [0])
        var last: CiphertextMessage = first
        for index in 1...2002 { last = try alice.cipher(to: bob).encrypt([UInt8(truncatingIfNeeded: index)]) }
        let error = #expect(throws: SignalProtocolError.self) { try bob.cipher(to: alice).decrypt(last) }
        #expect(error?.code == .counterTooFarAhead)
    }

    @Test func decryptCommitsOnlyWhenCallerAccepts() throws {
        struct Rejected: Error {}
        let (alice, bob) = try makePair()
        let first = try alice.cipher(to: bob).encrypt(Array("one".utf8))
        #expect(throws: Rejected.self) {
            try bob.cipher(to: alice).decrypt(first) { _ in throw Rejected() }
        }
        #expect(bob.store.loadSession(for: alice.address) == nil)
        #expect(bob.store.loadPreKey(id: 31) != nil)
        #expect(try bob.cipher(to: alice).decrypt(first) == Array("one".utf8))

        let second = try alice.cipher(to: bob).encrypt(Array("two".utf8))
        #expect(throws: Rejected.self) {
            try bob.cipher(to: alice).decrypt(second) { _ in throw Rejected() }
        }
        #expect(try bob.cipher(to: alice).decrypt(second) { String(decoding: $0, as: UTF8.self) } == "two")
    }

    @Test func archivedStateDecryptsAndIsPromoted() throws {
        let (alice, bob) = try makePair()
        let old = try alice.cipher(to: bob).encrypt(Array("old".utf8))
        let oldLate = try alice.cipher(to: bob).encrypt(Array("old late".utf8))
        #expect(try bob.cipher(to: alice).decrypt(old) == Array("old".utf8))
        // Alice starts over from a new bundle: Bob archives the old state when the new session arrives.
        try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address)
            .process(bundle: bob.bundle(preKeyId: 32, signedPreKeyId: 8))
        let fresh = try alice.cipher(to: bob).encrypt(Array("new".utf8))
        #expect(try bob.cipher(to: alice).decrypt(fresh) == Array("new".utf8))
        #expect(bob.store.loadSession(for: alice.address)?.previousStates.count == 1)
        #expect(try bob.cipher(to: alice).decrypt(oldLate) == Array("old late".utf8))
        let record = try #require(bob.store.loadSession(for: alice.address))
        #expect(record.currentState?.aliceBaseKey != record.previousStates.first?.aliceBaseKey)
    }

    @Test func archiveIsBounded() throws {
        let configuration = SessionConfiguration(maxArchivedStates: 3)
        let alice = try TestDevice(name: "alice")
        let bob = try TestDevice(name: "bob")
        for round in 0..<6 {
            try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address, configuration: configuration)
                .process(bundle: bob.bundle(preKeyId: UInt32(100 + round)))
        }
        let record = try #require(alice.store.loadSession(for: bob.address))
        #expect(record.previousStates.count == 3)
    }

    @Test func changedIdentityIsRefusedUntilSaved() throws {
        let (alice, bob) = try makePair()
        let impostor = try TestDevice(name: "bob")
        let error = #expect(throws: SignalProtocolError.self) {
            try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(
                bundle: impostor.bundle())
        }
        #expect(error?.code == .untrustedIdentity)
        #expect(alice.store.saveIdentity(impostor.identity.identityKey, for: bob.address) == true)
        try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(bundle: impostor.bundle())
    }

    @Test func badSignedPreKeySignatureIsRefused() throws {
        let alice = try TestDevice(name: "alice")
        let bob = try TestDevice(name: "bob")
        var bundle = try bob.bundle()
        bundle.signedPreKeySignature[0] ^= 1
        let error = #expect(throws: SignalProtocolError.self) {
            try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(bundle: bundle)
        }
        #expect(error?.code == .invalidSignature)
    }

    @Test func noSessionIsAnError() throws {
        let alice = try TestDevice(name: "alice")
        let bob = try TestDevice(name: "bob")
        let error = #expect(throws: SignalProtocolError.self) { try alice.cipher(to: bob).encrypt([1]) }
        #expect(error?.code == .noSession)
    }

    @Test func simultaneousInitiationConverges() throws {
        let alice = try TestDevice(name: "alice")
        let bob = try TestDevice(name: "bob")
        try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(bundle: bob.bundle())
        try SessionBuilder(stores: bob.store.stores, remoteAddress: alice.address).process(bundle: alice.bundle())
        let fromAlice = try alice.cipher(to: bob).encrypt(Array("hi from alice".utf8))
        let fromBob = try bob.cipher(to: alice).encrypt(Array("hi from bob".utf8))
        #expect(try bob.cipher(to: alice).decrypt(fromAlice) == Array("hi from alice".utf8))
        #expect(try alice.cipher(to: bob).decrypt(fromBob) == Array("hi from bob".utf8))
        // Each side now sends on a different state; archived states bridge the gap and get promoted.
        for round in 0..<6 {
            let a = try alice.cipher(to: bob).encrypt([UInt8(round)])
            #expect(try bob.cipher(to: alice).decrypt(a) == [UInt8(round)])
            let b = try bob.cipher(to: alice).encrypt([UInt8(round + 100)])
            #expect(try alice.cipher(to: bob).decrypt(b) == [UInt8(round + 100)])
        }
    }

    @Test func incomingSessionFromChangedIdentityIsRefusedAndNothingCommits() throws {
        let (alice, bob) = try makePair()
        #expect(try bob.cipher(to: alice).decrypt(alice.cipher(to: bob).encrypt([1])) == [1])
        // Alice reinstalls: same address, new identity, new session to Bob.
        let reinstalled = try TestDevice(name: "alice")
        try SessionBuilder(stores: reinstalled.store.stores, remoteAddress: bob.address)
            .process(bundle: bob.bundle(preKeyId: 40, signedPreKeyId: 9))
        let opening = try reinstalled.cipher(to: bob).encrypt([2])
        let error = #expect(throws: SignalProtocolError.self) { try bob.cipher(to: alice).decrypt(opening) }
        #expect(error?.code == .untrustedIdentity)
        #expect(bob.store.loadPreKey(id: 40) != nil)
        // The user approves the new safety number: the change is reported, then the message decrypts.
        #expect(bob.store.saveIdentity(reinstalled.identity.identityKey, for: alice.address) == true)
        #expect(try bob.cipher(to: alice).decrypt(opening) == [2])
    }

    @Test func messageFromEvictedChainFailsCleanly() throws {
        let configuration = SessionConfiguration(maxReceiverChains: 2)
        let (alice, bob) = try makePair(configuration: configuration)
        let toBob = alice.cipher(to: bob, configuration: configuration)
        let toAlice = bob.cipher(to: alice, configuration: configuration)
        #expect(try toAlice.decrypt(toBob.encrypt([0])) == [0])
        #expect(try toBob.decrypt(toAlice.encrypt([0])) == [0])
        let held = try toBob.encrypt(Array("late".utf8))
        for round in 1...3 {
            #expect(try toAlice.decrypt(toBob.encrypt([UInt8(round)])) == [UInt8(round)])
            #expect(try toBob.decrypt(toAlice.encrypt([UInt8(round)])) == [UInt8(round)])
        }
        #expect(throws: SignalProtocolError.self) { try toAlice.decrypt(held) }
        #expect(try toAlice.decrypt(toBob.encrypt([9])) == [9])
    }
}
