import SignalInteropPeer
import Testing

@testable import SignalProtocol

/// Sessions between this implementation and libsignal-protocol-c, in both directions.
struct InteropTests {
    /// Random turns; within each turn the receiver gets the batch in random order.
    func converse(
        ours: TestDevice, theirs: LibSignalPeer, rounds: Int, seed: UInt64, oursFirst: Bool
    ) throws {
        var rng = SeededGenerator(seed: seed)
        let ourCipher = SessionCipher(stores: ours.store.stores, remoteAddress: theirs.address)
        var oursTurn = oursFirst
        for round in 0..<rounds {
            let count = Int.random(in: 1...4, using: &rng)
            var batch: [(CiphertextMessage, [UInt8])] = []
            for index in 0..<count {
                let length = Int.random(in: 0...300, using: &rng)
                let plaintext = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) } + [UInt8(index)]
                let message =
                    oursTurn ? try ourCipher.encrypt(plaintext) : try theirs.encrypt(plaintext, to: ours.address)
                batch.append((message, plaintext))
            }
            batch.shuffle(using: &rng)
            // After the opening round, now and then a message is lost for good.
            if round > 0 && batch.count > 1 && Int.random(in: 0..<4, using: &rng) == 0 { batch.removeLast() }
            for (message, plaintext) in batch {
                let wire = try CiphertextMessage(type: message.type, serialized: message.serialized)
                let decrypted = oursTurn ? try theirs.decrypt(wire, from: ours.address) : try ourCipher.decrypt(wire)
                #expect(decrypted == plaintext)
            }
            // The responder answers the opening batch, then turns are random.
            oursTurn = round == 0 ? !oursFirst : Bool.random(using: &rng)
        }
    }

    @Test(arguments: [true, false])
    func weStartFromLibsignalBundle(oneTime: Bool) throws {
        let ours = try TestDevice(name: "swift")
        let theirs = try LibSignalPeer(name: "c")
        try SessionBuilder(stores: ours.store.stores, remoteAddress: theirs.address)
            .process(bundle: theirs.bundle(preKeyId: oneTime ? 77 : 0))
        try converse(ours: ours, theirs: theirs, rounds: 150, seed: oneTime ? 1 : 2, oursFirst: true)
    }

    @Test(arguments: [true, false])
    func libsignalStartsFromOurBundle(oneTime: Bool) throws {
        let ours = try TestDevice(name: "swift")
        let theirs = try LibSignalPeer(name: "c")
        try theirs.process(ours.bundle(oneTime: oneTime), from: ours.address)
        try converse(ours: ours, theirs: theirs, rounds: 150, seed: oneTime ? 3 : 4, oursFirst: false)
        #expect(ours.store.loadPreKey(id: 31) == nil)
    }

    @Test func simultaneousInitiationWithLibsignalConverges() throws {
        let ours = try TestDevice(name: "swift")
        let theirs = try LibSignalPeer(name: "c")
        try SessionBuilder(stores: ours.store.stores, remoteAddress: theirs.address).process(bundle: theirs.bundle())
        try theirs.process(ours.bundle(), from: ours.address)
        let cipher = SessionCipher(stores: ours.store.stores, remoteAddress: theirs.address)
        let fromUs = try cipher.encrypt(Array("ours first".utf8))
        let fromThem = try theirs.encrypt(Array("theirs first".utf8), to: ours.address)
        #expect(try theirs.decrypt(fromUs, from: ours.address) == Array("ours first".utf8))
        #expect(try cipher.decrypt(fromThem) == Array("theirs first".utf8))
        for round in 0..<10 {
            #expect(try theirs.decrypt(cipher.encrypt([UInt8(round)]), from: ours.address) == [UInt8(round)])
            #expect(try cipher.decrypt(theirs.encrypt([UInt8(round), 1], to: ours.address)) == [UInt8(round), 1])
        }
    }

    /// Both implementations put the index of the last message on the previous sending chain
    /// (not its length) into `previousCounter`.
    @Test(arguments: [1, 3, 7])
    func previousCounterMatchesLibsignal(sentBeforeReply: Int) throws {
        let ours = try TestDevice(name: "swift")
        let theirs = try LibSignalPeer(name: "c")
        try theirs.process(ours.bundle(), from: ours.address)
        try SessionBuilder(stores: ours.store.stores, remoteAddress: theirs.address)
            .process(bundle: theirs.bundle(preKeyId: 0))
        let cipher = SessionCipher(stores: ours.store.stores, remoteAddress: theirs.address)
        // Establish: they open, we answer, so both sides are on whisper messages.
        _ = try cipher.decrypt(theirs.encrypt([0], to: ours.address))
        _ = try theirs.decrypt(cipher.encrypt([0]), from: ours.address)
        for index in 0..<sentBeforeReply {
            _ = try cipher.decrypt(theirs.encrypt([UInt8(index)], to: ours.address))
        }
        for index in 0..<sentBeforeReply {
            _ = try theirs.decrypt(cipher.encrypt([UInt8(index)]), from: ours.address)
        }
        // Each side has just sent `sentBeforeReply` messages on its chain and ratchets on the reply.
        guard case .whisper(let theirMessage) = try theirs.encrypt([1], to: ours.address) else {
            Issue.record("expected a SignalMessage from libsignal")
            return
        }
        _ = try cipher.decrypt(.whisper(theirMessage))
        guard case .whisper(let ourMessage) = try cipher.encrypt([1]) else {
            Issue.record("expected a SignalMessage from us")
            return
        }
        #expect(theirMessage.previousCounter == UInt32(sentBeforeReply - 1))
        #expect(ourMessage.previousCounter == theirMessage.previousCounter)
        #expect(try theirs.decrypt(.whisper(ourMessage), from: ours.address) == [1])
    }

    @Test func libsignalVerifiesOurSignatureAndWeVerifyTheirs() throws {
        let ours = try TestDevice(name: "swift")
        let theirs = try LibSignalPeer(name: "c")
        for _ in 0..<20 {
            let bundle = try theirs.bundle()
            #expect(
                bundle.identityKey.verifySignature(bundle.signedPreKeySignature, for: bundle.signedPreKey.serialized))
            var tampered = try ours.bundle()
            tampered.signedPreKeySignature[5] ^= 0x10
            #expect(throws: PeerError.self) { try theirs.process(tampered, from: ours.address) }
            try theirs.process(ours.bundle(), from: ours.address)
        }
    }

    @Test func safetyNumbersMatchLibsignal() throws {
        let peer = try LibSignalPeer(name: "c")
        var rng = SeededGenerator(seed: 99)
        for round in 0..<4 {
            let a = try KeyPair.generate().publicKey
            let b = try KeyPair.generate().publicKey
            let aId = "+1415555\(Int.random(in: 1000...9999, using: &rng))"
            let bId = "+4420\(round)7946\(Int.random(in: 1000...9999, using: &rng))"
            let theirs = try peer.safetyNumber(local: aId, localKey: a, remote: bId, remoteKey: b, iterations: 5200)
            let ours = try SafetyNumber(localIdentifier: aId, localKey: a, remoteIdentifier: bId, remoteKey: b)
            #expect(ours.displayText == theirs)
            #expect(ours.displayText.count == 60)
            let mirrored = try SafetyNumber(localIdentifier: bId, localKey: b, remoteIdentifier: aId, remoteKey: a)
            #expect(mirrored.displayText == ours.displayText)
        }
    }
}
