import CourierCore
import Foundation
import SignalProtocol
import Testing

@testable import Messenger

/// One trust model: the client's sessions report every identity key to `ContactVerification`,
/// which decides whether a change blocks sending.
@Suite(.timeLimit(.minutes(3)))
struct ClientTrustTests {
    @Test func aVerifiedContactsKeyChangeWarnsBlocksSendingUntilAcceptedAndIsVerifiedByScanning() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let aliceAccount = alice.credentials.accountId
        let bobAccount = bob.credentials.accountId
        try await alice.send(text: "hi bob", to: bobAccount)
        _ = try await bob.sync()

        // Both phones show the same number; scanning Bob's code marks him verified on Alice's.
        let onAlice = try await alice.safetyNumber(with: bobAccount)
        let onBob = try await bob.safetyNumber(with: aliceAccount)
        #expect(onAlice.digits == onBob.digits)
        #expect(onAlice.digits.count == 60)
        #expect(try await alice.verifySafetyNumber(of: bobAccount, scanned: onBob.qrCodeBytes) == .match)
        #expect(try await alice.trust.record(for: bobAccount)?.verification == .verified)
        #expect(try await alice.verifySafetyNumber(of: bobAccount, scanned: onAlice.qrCodeBytes) == .identityMismatch)

        // Bob reinstalls and writes first: his session-opening message carries the new key.
        let reinstalled = try await AtomicDecryptTests.reinstall(bob, server: server)
        try await reinstalled.send(text: "new phone", to: aliceAccount)
        #expect(try await alice.sync() == [.identityChanged(account: bobAccount)])
        var warnings = alice.trust.warnings.makeAsyncIterator()
        let warning = try #require(await warnings.next())
        #expect(warning.contact == bobAccount)
        #expect(warning.wasVerified && warning.blocksSending)
        #expect(warning.newKey == (await reinstalled.identityKeyPair()).identityKey)
        #expect(try await alice.trust.maySend(to: bobAccount) == false)
        #expect(try await alice.trust.record(for: bobAccount)?.verification == .unverified, "the change voids it")
        await #expect(throws: MessengerClientError.self) { try await alice.send(text: "still blocked", to: bobAccount) }
        #expect(try await reinstalled.sync().isEmpty, "nothing went out while blocked")

        try await alice.acceptIdentityChange(of: bobAccount)
        #expect(try await alice.sync().bodies == ["new phone"], "the held envelope decrypts after the acceptance")
        try await alice.send(text: "welcome back", to: bobAccount)
        #expect(try await reinstalled.sync().bodies == ["welcome back"])
        let newNumber = try await alice.safetyNumber(with: bobAccount)
        #expect(newNumber.digits != onAlice.digits)
        let onNewBob = try await reinstalled.safetyNumber(with: aliceAccount)
        #expect(try await alice.verifySafetyNumber(of: bobAccount, scanned: onNewBob.qrCodeBytes) == .match)
        await #expect(throws: MessengerClientError.self) { try await alice.acceptIdentityChange(of: bobAccount) }
        try server.expectNoPlaintext(["hi bob", "new phone", "welcome back"])
    }

    @Test func aWarnOnlyPolicyAdoptsTheNewKeyAndDecryptsAtOnce() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        var relaxed = server.configuration("alice")
        relaxed.identityChangePolicy = .warnOnly
        let alice = try await MessengerClient.register(relaxed, http: server.http)
        let bob = try await server.register("bob")
        let bobAccount = bob.credentials.accountId
        try await alice.send(text: "hello", to: bobAccount)
        _ = try await bob.sync()

        let reinstalled = try await AtomicDecryptTests.reinstall(bob, server: server)
        try await reinstalled.send(text: "new phone", to: alice.credentials.accountId)
        #expect(try await alice.sync().bodies == ["new phone"], "decrypted without waiting for the user")
        let record = try #require(try await alice.trust.record(for: bobAccount))
        #expect(record.identityKey == (await reinstalled.identityKeyPair()).identityKey)
        #expect(record.pendingChange?.blocksSending == false, "a notice for the app to show")
        try await alice.send(text: "ok", to: bobAccount)
        #expect(try await reinstalled.sync().bodies == ["ok"])
    }

    @Test func aChangedKeyInAFetchedBundleFailsTheSendUntilAcceptedThenRetryDeliversIt() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let bobAccount = bob.credentials.accountId
        try await alice.send(text: "first", to: bobAccount)
        _ = try await bob.sync()

        // Bob reinstalls; Alice has no session left with him, so her next send fetches his bundle.
        let reinstalled = try await AtomicDecryptTests.reinstall(bob, server: server)
        try alice.storage.transaction { _, _, db in try db.execute("DELETE FROM signal_sessions") }
        await #expect {
            try await alice.send(text: "after the change", to: bobAccount)
        } throws: { ($0 as? MessengerClientError)?.code == .identityChanged }
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bobAccount)
        let blocked = try #require(try await alice.messages(in: conversation).last)
        #expect(blocked.state == .failed, "an identity change is not retried by itself")
        #expect(
            try await alice.pendingIdentityChange(of: bobAccount) == (await reinstalled.identityKeyPair()).identityKey)

        try await alice.acceptIdentityChange(of: bobAccount)
        let retried = try await alice.retry(clientId: blocked.clientId)
        #expect(retried.state == .sent)
        #expect(try await reinstalled.sync().bodies == ["after the change"])
    }
}
