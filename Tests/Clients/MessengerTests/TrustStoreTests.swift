import CourierCore
import Foundation
import SignalProtocol
import Testing

@testable import Messenger

/// The trust model's state against both stores, and the SQLite store across reopening.
@Suite(.timeLimit(.minutes(1))) struct TrustStoreTests {
    enum Backend: String, CaseIterable, Sendable {
        case memory, sqlite
    }

    let directory = NSTemporaryDirectory() + "trust-" + UUID().uuidString
    let alice: IdentityKeyPair
    let bob: IdentityKeyPair

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        alice = try IdentityKeyPair.generate()
        bob = try IdentityKeyPair.generate()
    }

    private var path: String { directory + "/trust.sqlite" }

    private func store(_ backend: Backend) throws -> any ContactTrustStore {
        switch backend {
        case .memory: InMemoryContactTrustStore()
        case .sqlite: try SQLiteContactTrustStore(path: path)
        }
    }

    private func verification(_ store: any ContactTrustStore) -> ContactVerification {
        ContactVerification(
            presenter: SafetyNumberPresenter(localIdentifier: "alice", localKey: alice.identityKey, iterations: 8),
            store: store)
    }

    @Test(arguments: Backend.allCases)
    func aKeyChangeIsRecordedAndAcceptedOnEitherStore(backend: Backend) async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trust = verification(try store(backend))
        #expect(try await trust.record(for: "bob") == nil)
        #expect(try await trust.observe(bob.identityKey, for: "bob") == .firstSeen)
        #expect(try await trust.markVerified("bob", key: bob.identityKey))
        let newKey = try IdentityKeyPair.generate().identityKey
        guard case .changed(let warning) = try await trust.observe(newKey, for: "bob") else {
            Issue.record("no change observed")
            return
        }
        let record = try #require(try await trust.record(for: "bob"))
        #expect(record == ContactTrustRecord(contact: "bob", identityKey: newKey, pendingChange: warning))
        #expect(try await !trust.maySend(to: "bob"))
        try await trust.acceptChange(for: "bob")
        #expect(try await trust.record(for: "bob") == ContactTrustRecord(contact: "bob", identityKey: newKey))
    }

    @Test func theSQLiteStoreKeepsVerificationAndPendingChangesAcrossReopening() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let newKey = try IdentityKeyPair.generate().identityKey
        do {
            let trust = verification(try SQLiteContactTrustStore(path: path))
            _ = try await trust.observe(bob.identityKey, for: "bob")
            _ = try await trust.markVerified("bob", key: bob.identityKey)
            _ = try await trust.observe(alice.identityKey, for: "carol")
            _ = try await trust.markVerified("carol", key: alice.identityKey)
            _ = try await trust.observe(newKey, for: "bob")
        }
        let reopened = verification(try SQLiteContactTrustStore(path: path))
        #expect(try await !reopened.maySend(to: "bob"))
        let pending = try #require(try await reopened.record(for: "bob")?.pendingChange)
        #expect(pending.previousKey == bob.identityKey)
        #expect(pending.newKey == newKey)
        #expect(pending.wasVerified)
        #expect(try await reopened.record(for: "carol")?.verification == .verified)
        #expect(try await reopened.maySend(to: "carol"))
        // The same key again is unchanged after reopening, not a second warning.
        #expect(try await reopened.observe(newKey, for: "bob") == .unchanged)
    }

    @Test func aCorruptStoredKeyIsAnErrorNotATrustDecision() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try DatabasePool(path: path, migrator: Migrator(SQLiteContactTrustStore.migrations))
        let store = SQLiteContactTrustStore(pool: pool)
        try store.save(ContactTrustRecord(contact: "bob", identityKey: bob.identityKey))
        try pool.write { db in
            try db.run("UPDATE messenger_contact_trust SET identity_key = ? WHERE contact = 'bob'", [.blob([5, 1, 2])])
        }
        #expect(throws: SignalProtocolError.self) { try store.record(for: "bob") }
        let trust = verification(store)
        await #expect(throws: SignalProtocolError.self) { try await trust.maySend(to: "bob") }
    }
}
