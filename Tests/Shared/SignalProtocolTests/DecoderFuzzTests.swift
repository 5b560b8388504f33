import Testing

@testable import SignalProtocol

/// A seeded fuzz loop over every public decoder: random bytes and mutations of a valid encoding
/// must never crash, and every failure must be a `SignalProtocolError`.
struct DecoderFuzzTests {
    enum Decoder: String, CaseIterable, Sendable, CustomStringConvertible {
        case signalMessage, preKeySignalMessage, ciphertextMessage, senderKeyMessage
        case senderKeyDistributionMessage, publicKey, sessionRecord, senderKeyRecord, identityKeyPair
        case preKeyRecord, signedPreKeyRecord

        var description: String { rawValue }

        /// A valid encoding to mutate.
        func seed() throws -> [UInt8] {
            switch self {
            case .signalMessage, .preKeySignalMessage, .ciphertextMessage, .sessionRecord:
                let (alice, bob) = try makePair()
                let opening = try alice.cipher(to: bob).encrypt([1, 2, 3])
                _ = try bob.cipher(to: alice).decrypt(opening)
                // Skip a few so the record holds skipped message keys too.
                for _ in 0..<3 { _ = try bob.cipher(to: alice).encrypt([4]) }
                let reply = try bob.cipher(to: alice).encrypt([5])
                _ = try alice.cipher(to: bob).decrypt(reply)
                switch self {
                case .signalMessage: return reply.serialized
                case .preKeySignalMessage: return opening.serialized
                case .ciphertextMessage: return [opening.type] + opening.serialized
                default: return try #require(alice.store.loadSession(for: bob.address)).serialized().unsafeCopiedBytes
                }
            case .senderKeyMessage, .senderKeyDistributionMessage, .senderKeyRecord:
                let alice = try TestDevice(name: "alice")
                let name = SenderKeyName(groupId: "g", sender: alice.address)
                let group = GroupCipher(store: alice.store)
                let distribution = try group.distributionMessage(for: name)
                let message = try group.encrypt([9, 9], for: name)
                switch self {
                case .senderKeyMessage: return message.serialized
                case .senderKeyDistributionMessage: return distribution.serialized
                default: return try #require(alice.store.loadSenderKey(for: name)).serialized().unsafeCopiedBytes
                }
            case .publicKey: return try KeyPair.generate().publicKey.serialized
            case .identityKeyPair: return try IdentityKeyPair.generate().serialized().unsafeCopiedBytes
            case .preKeyRecord: return try PreKeyRecord(id: 3, keyPair: .generate()).serialized().unsafeCopiedBytes
            case .signedPreKeyRecord:
                return try SignedPreKeyRecord.generate(identity: .generate(), id: 4, timestamp: 5).serialized()
                    .unsafeCopiedBytes
            }
        }

        func decode(_ bytes: [UInt8]) throws {
            switch self {
            case .signalMessage: _ = try SignalMessage(serialized: bytes)
            case .preKeySignalMessage: _ = try PreKeySignalMessage(serialized: bytes)
            case .ciphertextMessage:
                _ = try CiphertextMessage(type: bytes.first ?? 0, serialized: Array(bytes.dropFirst()))
            case .senderKeyMessage: _ = try SenderKeyMessage(serialized: bytes)
            case .senderKeyDistributionMessage: _ = try SenderKeyDistributionMessage(serialized: bytes)
            case .publicKey: _ = try PublicKey(serialized: bytes)
            case .sessionRecord: _ = try SessionRecord(serialized: SecretBytes(bytes))
            case .senderKeyRecord: _ = try SenderKeyRecord(serialized: SecretBytes(bytes))
            case .identityKeyPair: _ = try IdentityKeyPair(serialized: SecretBytes(bytes))
            case .preKeyRecord: _ = try PreKeyRecord(serialized: SecretBytes(bytes))
            case .signedPreKeyRecord: _ = try SignedPreKeyRecord(serialized: SecretBytes(bytes))
            }
        }
    }

    /// One random change: truncation, bit flips, a random byte, an insertion, a repeated slice or
    /// plain random bytes.
    static func mutate(_ seed: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
        case 1 where !bytes.isEmpty:
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            }
        case 2 where !bytes.isEmpty:
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
        case 3:
            let extra = (0..<Int.random(in: 1...8, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            bytes.insert(contentsOf: extra, at: Int.random(in: 0...bytes.count, using: &rng))
        case 4 where !bytes.isEmpty:
            let start = Int.random(in: 0..<bytes.count, using: &rng)
            let end = Int.random(in: start...bytes.count, using: &rng)
            bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...bytes.count, using: &rng))
        default:
            bytes = (0..<Int.random(in: 0...(seed.count + 16), using: &rng)).map { _ in
                UInt8.random(in: 0...255, using: &rng)
            }
        }
        return bytes
    }

    @Test(arguments: Decoder.allCases)
    func mutatedInputsFailCleanly(decoder: Decoder) throws {
        let seed = try decoder.seed()
        try decoder.decode(seed)
        var rng = SeededGenerator(seed: UInt64(decoder.rawValue.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        var refused = 0
        for _ in 0..<1_500 {
            let bytes = Self.mutate(seed, using: &rng)
            do {
                try decoder.decode(bytes)
            } catch is SignalProtocolError {
                refused += 1
            } catch {
                Issue.record("\(decoder) threw a foreign error: \(error)")
            }
        }
        #expect(refused > 0)
    }
}
