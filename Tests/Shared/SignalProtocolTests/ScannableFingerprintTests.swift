import SignalInteropPeer
import Testing

@testable import SignalProtocol

/// The scannable (QR) fingerprint against libsignal's vectors (rust/protocol/src/fingerprint.rs,
/// libsignal-protocol-c tests/test_fingerprint.c) and against libsignal-protocol-c itself.
struct ScannableFingerprintTests {
    static let aliceKey = "0506863bc66d02b40d27b8d49ca7c09e9239236f9d7d25d6fcca5ce13c7064d868"
    static let bobKey = "05f781b6fb32fed9ba1cf2de978d4d5da28dc34046ae814402b5c0dbd96fda907b"
    static let aliceScannable =
        "080112220a201e301a0353dce3dbe7684cb8336e85136cdc0ee96219494ada305d62a7bd61df1a220a20d62cbf73a11592015b6b9f1682ac306fea3aaf3885b84d12bca631e9d4fb3a4d"
    static let bobScannable =
        "080112220a20d62cbf73a11592015b6b9f1682ac306fea3aaf3885b84d12bca631e9d4fb3a4d1a220a201e301a0353dce3dbe7684cb8336e85136cdc0ee96219494ada305d62a7bd61df"

    let alice: IdentityKey
    let bob: IdentityKey

    init() throws {
        alice = try PublicKey(serialized: [UInt8](hex: Self.aliceKey))
        bob = try PublicKey(serialized: [UInt8](hex: Self.bobKey))
    }

    /// Alice's and Bob's fingerprints; `aliceId` and `bobAsAliceSees` let Alice's side differ.
    private func pair(
        version: UInt32 = 1, iterations: Int = 5200, aliceId: String = "+14152222222",
        bobAsAliceSees: IdentityKey? = nil
    ) throws -> (alice: Fingerprint, bob: Fingerprint) {
        let fromAlice = try Fingerprint(
            localIdentifier: aliceId, localKey: alice, remoteIdentifier: "+14153333333",
            remoteKey: bobAsAliceSees ?? bob, iterations: iterations, version: version)
        let fromBob = try Fingerprint(
            localIdentifier: "+14153333333", localKey: bob, remoteIdentifier: "+14152222222", remoteKey: alice,
            iterations: iterations, version: version)
        return (fromAlice, fromBob)
    }

    @Test func version1KnownAnswer() throws {
        let (fromAlice, fromBob) = try pair()
        #expect(fromAlice.scannable.serialized.hex == Self.aliceScannable)
        #expect(fromBob.scannable.serialized.hex == Self.bobScannable)
        #expect(fromAlice.safetyNumber.displayText == "300354477692869396892869876765458257569162576843440918079131")
        #expect(fromBob.safetyNumber.displayText == fromAlice.safetyNumber.displayText)
        let standalone = try ScannableFingerprint(
            localIdentifier: "+14152222222", localKey: alice, remoteIdentifier: "+14153333333", remoteKey: bob)
        #expect(standalone == fromAlice.scannable)
    }

    /// libsignal's `fingerprint_encodings`: the protobuf layout for a version-2 fingerprint.
    @Test func encodingLayout() throws {
        let fingerprint = ScannableFingerprint(
            version: 2, localHash: [UInt8](repeating: 0x12, count: 64), remoteHash: [UInt8](repeating: 0xBA, count: 64))
        let expected =
            "080212220a20" + String(repeating: "12", count: 32) + "1a220a20" + String(repeating: "ba", count: 32)
        #expect(fingerprint.serialized.hex == expected)
        #expect(try ScannableFingerprint(serialized: fingerprint.serialized) == fingerprint)
    }

    @Test func eachSideMatchesTheOthersScanButNotItsOwn() throws {
        let (fromAlice, fromBob) = try pair()
        #expect(try fromAlice.scannable.compare(scanned: fromBob.scannable.serialized))
        #expect(try fromBob.scannable.compare(scanned: fromAlice.scannable.serialized))
        #expect(try !fromAlice.scannable.compare(scanned: fromAlice.scannable.serialized))
    }

    @Test func aManInTheMiddlesKeyIsAMismatchNotAnError() throws {
        let mallory = try KeyPair.generate().publicKey
        let (fromAlice, fromBob) = try pair(iterations: 1024, bobAsAliceSees: mallory)
        #expect(fromAlice.safetyNumber != fromBob.safetyNumber)
        #expect(try !fromAlice.scannable.compare(scanned: fromBob.scannable.serialized))
        #expect(try !fromBob.scannable.compare(scanned: fromAlice.scannable.serialized))
    }

    @Test func aDifferentIdentifierIsAMismatch() throws {
        let (fromAlice, fromBob) = try pair(iterations: 1024, aliceId: "+141512222222")
        #expect(try !fromAlice.scannable.compare(scanned: fromBob.scannable.serialized))
    }

    /// libsignal's `fingerprint_mismatching_versions`: the digits agree, the scan is refused
    /// with a version error before any key is compared.
    @Test func aVersionMismatchIsToldApartFromAKeyMismatch() throws {
        let (version1, _) = try pair(version: 1)
        let (_, version2) = try pair(version: 2)
        #expect(version2.scannable.serialized.hex == "0802" + Self.bobScannable.dropFirst(4))
        let error = try #require(throws: SignalProtocolError.self) {
            try version1.scannable.compare(scanned: version2.scannable.serialized)
        }
        #expect(error.code == .fingerprintVersionMismatch)
        #expect(error.message.contains("version 2"))
        // No version field reads as version 0, as in libsignal.
        let unversioned = Array(version2.scannable.serialized.dropFirst(2))
        let missing = try #require(throws: SignalProtocolError.self) {
            try version1.scannable.compare(scanned: unversioned)
        }
        #expect(missing.code == .fingerprintVersionMismatch)
    }

    @Test(arguments: [
        ("empty", ""),
        ("not protobuf", "ffffffffffffffffffffff"),
        ("truncated side", "080112220a201e30"),
        ("no remote side", "080112220a20" + String(repeating: "11", count: 32)),
        ("side without content", "0801120018011a00"),
        ("side of the wrong wire type", "08011001"),
        ("length past the end", "0801127f"),
    ])
    func malformedScansAreParsingErrors(name: String, hex: String) throws {
        let (fromAlice, _) = try pair(iterations: 2)
        let bytes = [UInt8](hex: hex)
        let error = try #require(throws: SignalProtocolError.self, "\(name)") {
            try fromAlice.scannable.compare(scanned: bytes)
        }
        // An empty or sideless scan has no version: libsignal reports the version first.
        #expect(
            error.code == .fingerprintParsing || (error.code == .fingerprintVersionMismatch && name == "empty"),
            "\(name): \(error)")
        #expect(throws: SignalProtocolError.self) { try ScannableFingerprint(serialized: bytes) }
    }

    @Test func unknownFieldsAreSkippedAndShortContentIsAMismatch() throws {
        let (fromAlice, fromBob) = try pair()
        let withExtra = fromBob.scannable.serialized + [0x20, 0x05]  // field 4, varint 5
        #expect(try fromAlice.scannable.compare(scanned: withExtra))
        let short = [UInt8](hex: "080112020a001a020a00")
        #expect(try !fromAlice.scannable.compare(scanned: short))
    }

    @Test func iterationsOutOfRangeAreRefused() throws {
        #expect(throws: SignalProtocolError.self) {
            try ScannableFingerprint(
                localIdentifier: "a", localKey: alice, remoteIdentifier: "b", remoteKey: bob, iterations: 0)
        }
    }

    /// Our bytes equal libsignal-protocol-c's for random keys and identifiers, and its own
    /// `scannable_fingerprint_compare` accepts ours and refuses a version mismatch.
    @Test func matchesLibsignalProtocolC() throws {
        let peer = try LibSignalPeer(name: "c")
        for round in 0..<3 {
            let a = try KeyPair.generate().publicKey
            let b = try KeyPair.generate().publicKey
            let aId = "account-a-\(round)"
            let bId = "account-b-\(round)"
            let theirs = try peer.scannableFingerprint(
                local: aId, localKey: a, remote: bId, remoteKey: b, iterations: 1024, version: 1)
            let ours = try Fingerprint(
                localIdentifier: aId, localKey: a, remoteIdentifier: bId, remoteKey: b, iterations: 1024)
            #expect(ours.scannable.serialized == theirs)
            let bobSide = try Fingerprint(
                localIdentifier: bId, localKey: b, remoteIdentifier: aId, remoteKey: a, iterations: 1024)
            #expect(try peer.compareScannable(ours: theirs, scanned: bobSide.scannable.serialized))
            #expect(try bobSide.scannable.compare(scanned: theirs))
        }
        let a = try KeyPair.generate().publicKey
        let b = try KeyPair.generate().publicKey
        let version1 = try peer.scannableFingerprint(
            local: "a", localKey: a, remote: "b", remoteKey: b, iterations: 2, version: 1)
        let version0 = try peer.scannableFingerprint(
            local: "b", localKey: b, remote: "a", remoteKey: a, iterations: 2, version: 0)
        let theirError = try #require(throws: PeerError.self) {
            try peer.compareScannable(ours: version1, scanned: version0)
        }
        #expect(theirError.code == -1200)
        let ours = try Fingerprint(
            localIdentifier: "a", localKey: a, remoteIdentifier: "b", remoteKey: b, iterations: 2)
        let ourError = try #require(throws: SignalProtocolError.self) {
            try ours.scannable.compare(scanned: version0)
        }
        #expect(ourError.code == .fingerprintVersionMismatch)
    }
}
