import SignalProtocol
import Testing

@testable import Messenger

@Suite(.timeLimit(.minutes(1))) struct TrustVerificationTests {
    let alice: IdentityKeyPair
    let bob: IdentityKeyPair
    let aliceTrust: ContactVerification
    let bobPresenter: SafetyNumberPresenter

    init() throws {
        alice = try IdentityKeyPair.generate()
        bob = try IdentityKeyPair.generate()
        aliceTrust = ContactVerification(
            presenter: SafetyNumberPresenter(localIdentifier: "alice", localKey: alice.identityKey, iterations: 64),
            store: InMemoryContactTrustStore())
        bobPresenter = SafetyNumberPresenter(localIdentifier: "bob", localKey: bob.identityKey, iterations: 64)
    }

    @Test func digitsComeInTwelveGroupsOfFiveAndAgreeOnBothPhones() throws {
        let aliceSees = try aliceTrust.presenter.present(contact: "bob", key: bob.identityKey)
        let bobSees = try bobPresenter.present(contact: "alice", key: alice.identityKey)
        #expect(aliceSees.digits.count == 60)
        let allDigits = aliceSees.digits.unicodeScalars.allSatisfy { $0.properties.numericType == .decimal }
        #expect(allDigits)
        #expect(aliceSees.groups.count == 12)
        #expect(aliceSees.groups.allSatisfy { $0.count == 5 })
        #expect(aliceSees.groups.joined() == aliceSees.digits)
        #expect(aliceSees.lines.count == 3)
        #expect(aliceSees.lines[0] == aliceSees.groups[0..<4].joined(separator: " "))
        #expect(aliceSees.digits == bobSees.digits)
        #expect(aliceSees.compare(scanned: bobSees.qrCodeBytes) == .match)
        #expect(aliceSees.compare(scanned: aliceSees.qrCodeBytes) == .identityMismatch)
    }

    /// libsignal's vector through the presenter: the same 60 digits, grouped.
    @Test func knownAnswerDigits() throws {
        let aliceKey = try PublicKey(
            serialized: trustHexBytes("0506863bc66d02b40d27b8d49ca7c09e9239236f9d7d25d6fcca5ce13c7064d868"))
        let bobKey = try PublicKey(
            serialized: trustHexBytes("05f781b6fb32fed9ba1cf2de978d4d5da28dc34046ae814402b5c0dbd96fda907b"))
        let number = try SafetyNumberPresenter(localIdentifier: "+14152222222", localKey: aliceKey)
            .present(contact: "+14153333333", key: bobKey)
        #expect(number.lines == ["30035 44776 92869 39689", "28698 76765 45825 75691", "62576 84344 09180 79131"])
        #expect(number.qrCodeBytes.prefix(6) == [0x08, 0x01, 0x12, 0x22, 0x0a, 0x20])
    }

    @Test func scanResultsTellAVersionMismatchFromAKeyMismatchFromGarbage() throws {
        let aliceSees = try aliceTrust.presenter.present(contact: "bob", key: bob.identityKey)
        let mallory = try IdentityKeyPair.generate()
        let malloryAsBob = try SafetyNumberPresenter(
            localIdentifier: "bob", localKey: mallory.identityKey, iterations: 64
        ).present(contact: "alice", key: alice.identityKey)
        #expect(aliceSees.compare(scanned: malloryAsBob.qrCodeBytes) == .identityMismatch)
        let newer = try Fingerprint(
            localIdentifier: "bob", localKey: bob.identityKey, remoteIdentifier: "alice", remoteKey: alice.identityKey,
            iterations: 64, version: 2)
        #expect(aliceSees.compare(scanned: newer.scannable.serialized) == .versionMismatch)
        #expect(aliceSees.compare(scanned: Array("https://example.com".utf8)) == .unreadable)
        #expect(aliceSees.compare(scanned: [0x08, 0x01, 0x12, 0x7f]) == .unreadable)
    }

    @Test func scanningTheContactsCodeMarksThemVerified() async throws {
        #expect(try await aliceTrust.observe(bob.identityKey, for: "bob") == .firstSeen)
        #expect(try await aliceTrust.record(for: "bob")?.verification == .unverified)
        let bobSees = try bobPresenter.present(contact: "alice", key: alice.identityKey)
        #expect(try await aliceTrust.verify("bob", scanned: bobSees.qrCodeBytes) == .match)
        #expect(try await aliceTrust.record(for: "bob")?.verification == .verified)
        #expect(try await aliceTrust.verify("carol", scanned: bobSees.qrCodeBytes) == .identityMismatch)
        try await aliceTrust.markUnverified("bob")
        #expect(try await aliceTrust.record(for: "bob")?.verification == .unverified)
    }

    @Test func aChangedKeyWarnsVoidsVerificationAndBlocksSendingUntilAccepted() async throws {
        _ = try await aliceTrust.observe(bob.identityKey, for: "bob")
        #expect(try await aliceTrust.markVerified("bob", key: bob.identityKey))
        #expect(try await aliceTrust.maySend(to: "bob"))
        #expect(try await aliceTrust.observe(bob.identityKey, for: "bob") == .unchanged)

        let reinstalled = try IdentityKeyPair.generate()
        let observation = try await aliceTrust.observe(reinstalled.identityKey, for: "bob")
        let expected = IdentityChangeWarning(
            contact: "bob", previousKey: bob.identityKey, newKey: reinstalled.identityKey, wasVerified: true,
            blocksSending: true)
        #expect(observation == .changed(expected))
        var warnings = aliceTrust.warnings.makeAsyncIterator()
        #expect(await warnings.next() == expected)
        #expect(try await aliceTrust.record(for: "bob")?.verification == .unverified)
        #expect(try await !aliceTrust.maySend(to: "bob"))
        let number = try #require(try await aliceTrust.safetyNumber(for: "bob"))
        #expect(number.contactKey == reinstalled.identityKey)

        try await aliceTrust.acceptChange(for: "bob")
        #expect(try await aliceTrust.maySend(to: "bob"))
        #expect(try await aliceTrust.record(for: "bob")?.verification == .unverified)
        #expect(try await aliceTrust.record(for: "bob")?.pendingChange == nil)
    }

    @Test func verifyingAKeyThatChangedMeanwhileMarksNothing() async throws {
        _ = try await aliceTrust.observe(bob.identityKey, for: "bob")
        let shown = try #require(try await aliceTrust.safetyNumber(for: "bob"))
        let newKey = try IdentityKeyPair.generate().identityKey
        _ = try await aliceTrust.observe(newKey, for: "bob")
        #expect(try await !aliceTrust.markVerified("bob", key: shown.contactKey))
        #expect(try await aliceTrust.record(for: "bob")?.verification == .unverified)
        #expect(try await !aliceTrust.maySend(to: "bob"))
        // Verifying the new key (digits compared in person) also clears the pending change.
        #expect(try await aliceTrust.markVerified("bob", key: newKey))
        #expect(try await aliceTrust.maySend(to: "bob"))
    }

    @Test(arguments: [
        (IdentityChangePolicy.blockUntilAccepted, false, true),
        (.blockUntilAccepted, true, true),
        (.blockIfVerified, false, false),
        (.blockIfVerified, true, true),
        (.warnOnly, true, false),
    ])
    func policyDecidesWhetherAChangeBlocks(policy: IdentityChangePolicy, verified: Bool, blocks: Bool) async throws {
        let trust = ContactVerification(
            presenter: SafetyNumberPresenter(localIdentifier: "alice", localKey: alice.identityKey, iterations: 8),
            store: InMemoryContactTrustStore(), policy: policy)
        _ = try await trust.observe(bob.identityKey, for: "bob")
        if verified { _ = try await trust.markVerified("bob", key: bob.identityKey) }
        let observation = try await trust.observe(try IdentityKeyPair.generate().identityKey, for: "bob")
        guard case .changed(let warning) = observation else {
            Issue.record("expected a change, got \(observation)")
            return
        }
        #expect(warning.blocksSending == blocks)
        #expect(warning.wasVerified == verified)
        #expect(try await trust.maySend(to: "bob") == !blocks)
    }

    /// The SignalProtocol store reports a change through `saveIdentity`; feeding the same keys to
    /// the trust model gives the same verdict.
    @Test func agreesWithTheSignalStoresChangeReport() async throws {
        let store = InMemorySignalStore(identity: alice, registrationId: 1)
        let address = ProtocolAddress(name: "bob", deviceId: 1)
        #expect(!store.saveIdentity(bob.identityKey, for: address))
        #expect(try await aliceTrust.observe(bob.identityKey, for: "bob") == .firstSeen)
        let newKey = try IdentityKeyPair.generate().identityKey
        #expect(store.saveIdentity(newKey, for: address))
        guard case .changed = try await aliceTrust.observe(newKey, for: "bob") else {
            Issue.record("the trust model missed the change the store reported")
            return
        }
    }
}

private func trustHexBytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
        bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}
