import Testing

@testable import SignalProtocol

struct HostileInputTests {
    /// The codes a parser may give for bytes that are not a message.
    static let malformedInputCodes: Set<SignalProtocolError.Code> = [
        .invalidMessage, .invalidProtobuf, .invalidKey, .unknownVersion, .legacyVersion,
    ]

    /// A session where Bob has answered, so Alice's next message is a plain SignalMessage.
    func establishedPair() throws -> (TestDevice, TestDevice) {
        let (alice, bob) = try makePair()
        _ = try bob.cipher(to: alice).decrypt(alice.cipher(to: bob).encrypt([0]))
        _ = try alice.cipher(to: bob).decrypt(bob.cipher(to: alice).encrypt([0]))
        return (alice, bob)
    }

    @Test func everyTruncationAndBitFlipOfSignalMessageFails() throws {
        let (alice, bob) = try establishedPair()
        let message = try alice.cipher(to: bob).encrypt(Array("attack at dawn".utf8))
        guard case .whisper = message else {
            Issue.record("expected a SignalMessage")
            return
        }
        let bytes = message.serialized
        let cipher = bob.cipher(to: alice)
        for length in 0..<bytes.count {
            #expect(throws: SignalProtocolError.self) {
                try cipher.decrypt(CiphertextMessage(type: 2, serialized: Array(bytes.prefix(length))))
            }
        }
        for bit in 0..<(bytes.count * 8) {
            var flipped = bytes
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(throws: SignalProtocolError.self) {
                try cipher.decrypt(CiphertextMessage(type: 2, serialized: flipped))
            }
        }
        #expect(try cipher.decrypt(message) == Array("attack at dawn".utf8))
    }

    @Test func truncatedAndFlippedPreKeyMessagesNeverYieldWrongPlaintext() throws {
        let (alice, bob) = try makePair()
        let plaintext = Array("first contact".utf8)
        let message = try alice.cipher(to: bob).encrypt(plaintext)
        let bytes = message.serialized
        for length in 0..<bytes.count {
            #expect(throws: SignalProtocolError.self) {
                try bob.cipher(to: alice).decrypt(CiphertextMessage(type: 3, serialized: Array(bytes.prefix(length))))
            }
        }
        #expect(bob.store.loadSession(for: alice.address) == nil)
        let preKey = try #require(bob.store.loadPreKey(id: 31))
        var accepted = 0
        var refused = 0
        for bit in 0..<(bytes.count * 8) {
            var flipped = bytes
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            // Registration id and unknown fields are not authenticated (as in libsignal); a flip there may
            // still decrypt, but never to anything other than the original plaintext. Anything else is
            // refused with the module's error.
            do {
                let result = try bob.cipher(to: alice).decrypt(CiphertextMessage(type: 3, serialized: flipped)) { $0 }
                #expect(result == plaintext, "bit \(bit)")
                accepted += 1
            } catch is SignalProtocolError {
                refused += 1
            }
            bob.store.storeSession(SessionRecord(), for: alice.address)
            bob.store.storePreKey(preKey)
        }
        #expect(accepted > 0)
        #expect(refused > bytes.count * 7)
    }

    @Test func unknownVersionsGiveClearErrors() throws {
        let (alice, bob) = try establishedPair()
        let bytes = try alice.cipher(to: bob).encrypt([1]).serialized
        for (byte, code) in [(UInt8(0x43), SignalProtocolError.Code.unknownVersion), (0x23, .legacyVersion)] {
            var changed = bytes
            changed[0] = byte
            let error = #expect(throws: SignalProtocolError.self) { try SignalMessage(serialized: changed) }
            #expect(error?.code == code)
        }
        var lowNibble = bytes
        lowNibble[0] = 0x34
        #expect(try SignalMessage(serialized: lowNibble).messageVersion == 3)
    }

    @Test func randomBytesNeverCrashTheParsers() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<80, using: &rng)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if !bytes.isEmpty { bytes[0] = 0x33 }
            for parse in [{ _ = try SignalMessage(serialized: $0) }, { _ = try PreKeySignalMessage(serialized: $0) }]
                as [([UInt8]) throws -> Void]
            {
                let error = #expect(throws: SignalProtocolError.self) { try parse(bytes) }
                #expect(
                    error.map { Self.malformedInputCodes.contains($0.code) } == true, "\(String(describing: error))")
            }
        }
    }

    @Test func hugeLengthPrefixIsRefusedWithoutAllocating() {
        // Field 4 (ciphertext) claiming 2^62 bytes.
        var writer = ProtobufWriter()
        writer.writeTag(4, .lengthDelimited)
        writer.writeVarint(1 << 62)
        let bytes = [0x33] + writer.bytes + [UInt8](repeating: 0, count: 8)
        let error = #expect(throws: SignalProtocolError.self) { try SignalMessage(serialized: bytes) }
        #expect(error?.code == .invalidProtobuf)
        let overlong = [0x33] + [UInt8](repeating: 0xFF, count: 11) + [UInt8](repeating: 0, count: 8)
        #expect(throws: SignalProtocolError.self) { try SignalMessage(serialized: overlong) }
    }

    @Test func protobufRoundTripsVarints() throws {
        for value: UInt64 in [0, 1, 127, 128, 300, UInt64(UInt32.max), UInt64.max] {
            var writer = ProtobufWriter()
            writer.writeUInt64(1, value)
            var reader = ProtobufReader(writer.bytes)
            let tag = try #require(try reader.readTag())
            #expect(tag.field == 1)
            #expect(try reader.readVarint() == value)
            #expect(reader.isAtEnd)
        }
    }
}
