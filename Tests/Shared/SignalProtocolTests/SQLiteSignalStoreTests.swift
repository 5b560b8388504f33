import CourierCore
import Foundation
import Synchronization
import Testing

@testable import SignalProtocol

/// What only the SQLite store has: persistence across reopen, one transaction per decrypt,
/// translated errors, corrupt rows.
struct SQLiteSignalStoreTests {
    struct Rejected: Error {}

    /// A second connection to a device's file, as another process (or a disk fault) would have.
    private func rawDatabase(_ device: BackendDevice) throws -> Database {
        try Database(path: #require(device.path))
    }

    @Test func conversationContinuesAfterReopen() throws {
        var (alice, bob) = try makeBackendPair(.sqliteFile)
        #expect(try bob.cipher(to: alice).decrypt(alice.cipher(to: bob).encrypt([1])) == [1])
        #expect(try alice.cipher(to: bob).decrypt(bob.cipher(to: alice).encrypt([2])) == [2])
        let inFlight = try alice.cipher(to: bob).encrypt([3])

        alice = try alice.reopened()
        bob = try bob.reopened()
        #expect(try bob.store.identityKeyPair().identityKey == bob.identity.identityKey)
        #expect(try bob.store.localRegistrationId() == bob.registrationId)
        #expect(try bob.store.loadPreKey(id: 31) == nil)
        #expect(try bob.cipher(to: alice).decrypt(inFlight) == [3])
        for round in 0..<5 {
            let toBob = try alice.cipher(to: bob).encrypt([UInt8(10 + round)])
            #expect(try bob.cipher(to: alice).decrypt(toBob) == [UInt8(10 + round)])
            let toAlice = try bob.cipher(to: alice).encrypt([UInt8(20 + round)])
            #expect(try alice.cipher(to: bob).decrypt(toAlice) == [UInt8(20 + round)])
        }
    }

    @Test func preKeysAndSenderKeysSurviveReopen() throws {
        let bob = try BackendDevice(name: "bob", backend: .sqliteFile)
        _ = try bob.bundle(preKeyId: 5, signedPreKeyId: 6)
        let name = SenderKeyName(groupId: "g", sender: bob.address)
        let distribution = try GroupCipher(store: bob.store).distributionMessage(for: name)
        let reopened = try bob.reopened()
        #expect(try reopened.store.loadPreKey(id: 5)?.keyPair.publicKey != nil)
        #expect(try reopened.store.loadSignedPreKey(id: 6)?.signature.count == 64)
        #expect(try GroupCipher(store: reopened.store).distributionMessage(for: name).keyId == distribution.keyId)
    }

    @Test func identityChangeDetectionPersistsAcrossReopen() throws {
        let bob = try BackendDevice(name: "bob", backend: .sqliteFile)
        let carol = ProtocolAddress(name: "carol", deviceId: 2)
        let first = try IdentityKeyPair.generate().identityKey
        let second = try IdentityKeyPair.generate().identityKey
        #expect(try bob.store.saveIdentity(first, for: carol) == false)

        var reopened = try bob.reopened()
        #expect(try reopened.store.identity(for: carol) == first)
        #expect(try reopened.store.isTrustedIdentity(first, for: carol, direction: .receiving))
        #expect(try !reopened.store.isTrustedIdentity(second, for: carol, direction: .sending))
        #expect(try reopened.store.saveIdentity(second, for: carol) == true)

        reopened = try reopened.reopened()
        #expect(try reopened.store.isTrustedIdentity(second, for: carol, direction: .sending))
        #expect(try reopened.store.saveIdentity(second, for: carol) == false)
    }

    @Test func corruptSessionRowGivesCleanError() throws {
        let (alice, bob) = try makeBackendPair(.sqliteFile)
        try rawDatabase(alice).run("UPDATE signal_sessions SET record = x'0a03010203'")
        let error = #expect(throws: SignalProtocolError.self) { try alice.cipher(to: bob).encrypt([1]) }
        #expect(error?.code == .corruptRecord)
        #expect(error?.underlying is SignalProtocolError)
        #expect(error?.message.contains("session") == true)
    }

    @Test func corruptPreKeyAndIdentityRowsGiveCleanErrors() throws {
        let (alice, bob) = try makeBackendPair(.sqliteFile)
        let opening = try alice.cipher(to: bob).encrypt([1])
        try rawDatabase(bob).run("UPDATE signal_prekeys SET record = x'7801'")
        let preKeyError = #expect(throws: SignalProtocolError.self) { try bob.cipher(to: alice).decrypt(opening) }
        #expect(preKeyError?.code == .corruptRecord)
        #expect(try bob.store.loadSession(for: alice.address) == nil)

        try rawDatabase(alice).run("UPDATE signal_identities SET identity_key = x'05'")
        let identityError = #expect(throws: SignalProtocolError.self) { try alice.cipher(to: bob).encrypt([2]) }
        #expect(identityError?.code == .corruptRecord)
        // Recording the key again replaces the bad row and reports it as a change.
        #expect(try alice.store.saveIdentity(bob.identity.identityKey, for: bob.address) == true)
        _ = try alice.cipher(to: bob).encrypt([3])
    }

    @Test func failureAfterSessionWriteRollsBackTheWholeDecrypt() throws {
        let (alice, bob) = try makeBackendPair(.sqliteFile)
        let opening = try alice.cipher(to: bob).encrypt(Array("one".utf8))
        // The session and identity writes succeed, then deleting the one-time prekey fails.
        try rawDatabase(bob).execute(
            "CREATE TRIGGER refuse_prekey_delete BEFORE DELETE ON signal_prekeys BEGIN SELECT RAISE(ABORT, 'no'); END")
        var accepted = 0
        let error = #expect(throws: SignalProtocolError.self) {
            try bob.cipher(to: alice).decrypt(opening) { _ in accepted += 1 }
        }
        #expect(error?.code == .storageFailure)
        #expect((error?.underlying as? DatabaseError)?.isConstraintViolation == true)
        #expect(accepted == 1)
        #expect(try bob.store.loadSession(for: alice.address) == nil)
        #expect(try bob.store.identity(for: alice.address) == nil)
        #expect(try bob.store.loadPreKey(id: 31) != nil)

        try rawDatabase(bob).execute("DROP TRIGGER refuse_prekey_delete")
        #expect(try bob.cipher(to: alice).decrypt(opening) == Array("one".utf8))
        #expect(try bob.store.loadPreKey(id: 31) == nil)
    }

    @Test func fullDiskDuringDecryptCommitsNothingAndRetrySucceeds() throws {
        let (alice, bob) = try makeBackendPair(.sqliteFile)
        let path = try #require(bob.path)
        // Bob first sees the 400th message, so his new session holds 399 skipped keys (~40 KB).
        var last: CiphertextMessage?
        for index in 0..<400 { last = try alice.cipher(to: bob).encrypt([UInt8(truncatingIfNeeded: index)]) }
        let latest = try #require(last)
        let pages = try #require(rawDatabase(bob).query("PRAGMA page_count") { $0.int(0) }.first)
        var options = Database.Options()
        options.maximumPageCount = Int(pages)
        let full = try SQLiteSignalStore(
            path: path, keyProvider: bob.keyProvider, policy: .trustOnFirstUse, options: options)
        var accepted = 0
        let error = #expect(throws: SignalProtocolError.self) {
            try SessionCipher(stores: full.stores, remoteAddress: alice.address).decrypt(latest) { _ in accepted += 1 }
        }
        #expect(error?.code == .storageFailure)
        #expect((error?.underlying as? DatabaseError)?.isDiskFull == true)
        #expect(accepted == 1)
        #expect(try full.loadSession(for: alice.address) == nil)
        #expect(try full.loadPreKey(id: 31) != nil)
        #expect(try full.identity(for: alice.address) == nil)

        #expect(try bob.reopened().cipher(to: alice).decrypt(latest) == [UInt8(truncatingIfNeeded: 399)])
        #expect(try bob.store.loadPreKey(id: 31) == nil)
    }

    @Test(arguments: [StoreBackend.sqliteMemory, .sqliteFile])
    func callerErrorsPassThroughUnchanged(backend: StoreBackend) throws {
        let (alice, bob) = try makeBackendPair(backend)
        let opening = try alice.cipher(to: bob).encrypt([1])
        let callerError = DatabaseError(resultCode: 13, message: "caller's own inbox is full")
        let error = #expect(throws: DatabaseError.self) {
            try bob.cipher(to: alice).decrypt(opening) { _ in throw callerError }
        }
        #expect(error?.message == callerError.message)
        #expect(try bob.store.loadPreKey(id: 31) != nil)
    }

    @Test(arguments: [StoreBackend.sqliteMemory, .sqliteFile])
    func usingTheStoreInsideItsOwnTransactionFailsInsteadOfDeadlocking(backend: StoreBackend) throws {
        let (alice, bob) = try makeBackendPair(backend)
        let opening = try alice.cipher(to: bob).encrypt([1])
        let error = #expect(throws: SignalProtocolError.self) {
            try bob.cipher(to: alice).decrypt(opening) { _ in
                try bob.store.storePreKey(PreKeyRecord(id: 99, keyPair: .generate()))
            }
        }
        #expect(error?.code == .storageFailure)
        #expect(try bob.store.loadPreKey(id: 99) == nil)
        #expect(try bob.cipher(to: alice).decrypt(opening) == [1])
    }

    @Test func differentAddressesDecryptConcurrently() throws {
        let bob = try BackendDevice(name: "bob", backend: .sqliteFile)
        let peers = try (0..<4).map { try BackendDevice(name: "peer\($0)", backend: .inMemory) }
        var inboxes: [[CiphertextMessage]] = []
        for (index, peer) in peers.enumerated() {
            try SessionBuilder(stores: peer.store.stores, remoteAddress: bob.address)
                .process(bundle: bob.bundle(preKeyId: UInt32(100 + index), signedPreKeyId: UInt32(10 + index)))
            inboxes.append(try (0..<25).map { try peer.cipher(to: bob).encrypt([UInt8(index), UInt8($0)]) })
        }
        let failures = Mutex<[String]>([])
        let work = inboxes
        DispatchQueue.concurrentPerform(iterations: peers.count) { index in
            for (counter, message) in work[index].enumerated() {
                do {
                    let plaintext = try bob.cipher(to: peers[index]).decrypt(message)
                    if plaintext != [UInt8(index), UInt8(counter)] {
                        failures.withLock { $0.append("wrong plaintext") }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for (index, peer) in peers.enumerated() {
            #expect(try bob.store.loadPreKey(id: UInt32(100 + index)) == nil)
            #expect(try peer.cipher(to: bob).decrypt(bob.cipher(to: peer).encrypt([42])) == [42])
        }
    }

    @Test func reopeningChecksTheStoredIdentity() throws {
        let bob = try BackendDevice(name: "bob", backend: .sqliteFile)
        let path = try #require(bob.path)
        let other = try IdentityKeyPair.generate()
        let mismatch = #expect(throws: SignalProtocolError.self) {
            try SQLiteSignalStore(
                path: path, keyProvider: bob.keyProvider, identity: other, registrationId: bob.registrationId)
        }
        #expect(mismatch?.code == .invalidArgument)
        let same = try SQLiteSignalStore(
            path: path, keyProvider: bob.keyProvider, identity: bob.identity, registrationId: bob.registrationId)
        #expect(same.identityKeyPair().identityKey == bob.identity.identityKey)

        let directory = try TemporaryDirectory()
        let empty = #expect(throws: SignalProtocolError.self) {
            try SQLiteSignalStore(path: directory.path("new.sqlite"), keyProvider: InMemoryKeyProvider())
        }
        #expect(empty?.code == .invalidArgument)
    }

    @Test func identityPrivateKeyIsStoredAsBlobAndRestored() throws {
        let bob = try BackendDevice(name: "bob", backend: .sqliteFile)
        let type = try rawDatabase(bob).query("SELECT typeof(key_pair) FROM signal_local_identity") { $0.text(0) }
        #expect(type == ["blob"])
        let reopened = try SQLiteSignalStore(path: #require(bob.path), keyProvider: bob.keyProvider)
        #expect(reopened.identityKeyPair().privateKey.secret == bob.identity.privateKey.secret)
    }

    @Test func notADatabaseGivesStorageFailureWithTheUnderlyingError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("garbage.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SignalProtocolError.self) {
            try SQLiteSignalStore(
                path: path, keyProvider: InMemoryKeyProvider(), identity: .generate(), registrationId: 1)
        }
        #expect(error?.code == .storageFailure)
        #expect((error?.underlying as? DatabaseError)?.isCorrupt == true)
        #expect(error?.description.contains("SQLite") == false)
    }
}
