import CourierCore
import Foundation
import Testing

@testable import SignalProtocol

/// What an attacker who copies the store's files finds: no key material, and files only the owner can read.
struct StorageAtRestTests {
    /// Every private key, root key, chain key and message key the devices held, as raw bytes.
    final class SecretCollector {
        private(set) var secrets: [[UInt8]] = []

        func add(_ secret: SecretBytes) { secrets.append(secret.unsafeCopiedBytes) }

        func add(_ record: SessionRecord?) {
            guard let record else { return }
            for state in [record.currentState].compactMap({ $0 }) + record.previousStates {
                add(state.rootKey.key)
                add(state.senderChainKey.key)
                add(state.senderRatchetKey.privateKey.secret)
                for chain in state.receiverChains {
                    add(chain.chainKey.key)
                    for keys in chain.skippedKeys {
                        add(keys.cipherKey)
                        add(keys.macKey)
                    }
                }
            }
        }

        func add(_ record: SenderKeyRecord?) {
            for state in record?.states ?? [] {
                add(state.chainKey.seed)
                if let signing = state.signingPrivateKey { add(signing.secret) }
                for key in state.skippedKeys { add(key.cipherKey) }
            }
        }

        /// The secrets found in `bytes`, as hex.
        func found(in bytes: [UInt8]) -> [String] {
            var byPrefix: [UInt64: [[UInt8]]] = [:]
            for secret in secrets where secret.count >= 16 {
                byPrefix[Self.prefix(secret, 0), default: []].append(secret)
            }
            var hits: Set<String> = []
            var offset = 0
            while offset + 8 <= bytes.count {
                if let candidates = byPrefix[Self.prefix(bytes, offset)] {
                    for secret in candidates
                    where offset + secret.count <= bytes.count
                        && Array(bytes[offset..<(offset + secret.count)]) == secret
                    {
                        hits.insert(secret.hex)
                    }
                }
                offset += 1
            }
            return hits.sorted()
        }

        private static func prefix(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in offset..<(offset + 8) { value = value << 8 | UInt64(bytes[index]) }
            return value
        }
    }

    private func contents(_ path: String) throws -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test func conversationLeavesNoKeyMaterialInTheDatabaseOrItsLog() throws {
        let (alice, bob) = try makeBackendPair(.sqliteFile)
        let secrets = SecretCollector()
        secrets.add(alice.identity.privateKey.secret)
        secrets.add(bob.identity.privateKey.secret)
        secrets.add(try #require(try bob.store.loadPreKey(id: 31)).keyPair.privateKey.secret)
        secrets.add(try #require(try bob.store.loadSignedPreKey(id: 7)).keyPair.privateKey.secret)
        secrets.add(try alice.store.loadSession(for: bob.address))

        for index in 0..<20 {
            let (sender, receiver) = index % 3 == 2 ? (bob, alice) : (alice, bob)
            let plaintext = Array("message \(index)".utf8)
            #expect(
                try receiver.cipher(to: sender).decrypt(sender.cipher(to: receiver).encrypt(plaintext)) == plaintext)
            secrets.add(try alice.store.loadSession(for: bob.address))
            secrets.add(try bob.store.loadSession(for: alice.address))
        }
        let name = SenderKeyName(groupId: "family-chat", sender: alice.address)
        try GroupCipher(store: bob.store).process(
            GroupCipher(store: alice.store).distributionMessage(for: name), from: name)
        for index in 0..<3 {
            let message = try GroupCipher(store: alice.store).encrypt([UInt8(index)], for: name)
            secrets.add(try alice.store.loadSenderKey(for: name))
            #expect(try GroupCipher(store: bob.store).decrypt(message, from: name) == [UInt8(index)])
            secrets.add(try bob.store.loadSenderKey(for: name))
        }
        #expect(secrets.secrets.count > 200)

        for device in [alice, bob] {
            let path = try #require(device.path)
            for file in [path, path + "-wal"] {
                #expect(secrets.found(in: try contents(file)) == [], "\(file)")
            }
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(FileManager.default.fileExists(atPath: file), "\(file)")
                #expect(try mode(file) == 0o600, "\(file)")
            }
        }
    }

    /// A second connection to a device's file, as an attacker with write access would have.
    private func rawDatabase(_ device: BackendDevice) throws -> Database {
        try Database(path: #require(device.path))
    }

    @Test func changedRecordGivesCorruptRecordNotACrash() throws {
        let (alice, bob) = try makeBackendPair(.sqliteFile)
        let blob = try #require(
            try rawDatabase(alice).query("SELECT record FROM signal_sessions") { $0.bytes(0) }.first)
        for index in [0, 1, 30, blob.count - 1] {
            var changed = blob
            changed[index] ^= 0x01
            try rawDatabase(alice).run("UPDATE signal_sessions SET record = ?", [.blob(changed)])
            let error = #expect(throws: SignalProtocolError.self) { try alice.cipher(to: bob).encrypt([1]) }
            #expect(error?.code == .corruptRecord)
            #expect(error?.message.contains("session") == true)
        }
        try rawDatabase(alice).run("UPDATE signal_sessions SET record = ?", [.blob(blob)])
        _ = try alice.cipher(to: bob).encrypt([1])
    }

    @Test func recordMovedToAnotherRowDoesNotOpen() throws {
        let bob = try BackendDevice(name: "bob", backend: .sqliteFile)
        _ = try bob.bundle(preKeyId: 1)
        _ = try bob.bundle(preKeyId: 2)
        try rawDatabase(bob).run(
            "UPDATE signal_prekeys SET record = (SELECT record FROM signal_prekeys WHERE id = 1) WHERE id = 2")
        #expect(try bob.store.loadPreKey(id: 1)?.id == 1)
        let error = #expect(throws: SignalProtocolError.self) { try bob.store.loadPreKey(id: 2) }
        #expect(error?.code == .corruptRecord)
        #expect((error?.underlying as? SignalProtocolError)?.code == .invalidMAC)
    }

    @Test func anotherKeyCannotOpenTheStore() throws {
        let bob = try BackendDevice(name: "bob", backend: .sqliteFile)
        let error = #expect(throws: SignalProtocolError.self) {
            try SQLiteSignalStore(path: #require(bob.path), keyProvider: InMemoryKeyProvider())
        }
        #expect(error?.code == .corruptRecord)
        #expect(
            try SQLiteSignalStore(path: #require(bob.path), keyProvider: bob.keyProvider).identityKeyPair()
                .identityKey == bob.identity.identityKey)
    }

    @Test func keyFileIsCreatedOwnerOnlyAndReused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("signal.key")
        let provider = FileKeyProvider(path: path)
        let key = try provider.storageKey()
        #expect(key.count == 32)
        #expect(try mode(path) == 0o600)
        #expect(try FileKeyProvider(path: path).storageKey() == key)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["signal.key"])

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(try provider.storageKey() == key)
        #expect(try mode(path) == 0o600)

        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SignalProtocolError.self) { try provider.storageKey() }
        #expect(error?.code == .storageFailure)
    }

    @Test func recordsWrittenBeforeSealingAreSealedOnOpen() throws {
        let (alice, bob) = try makeBackendPair(.sqliteFile)
        #expect(try bob.cipher(to: alice).decrypt(alice.cipher(to: bob).encrypt([1])) == [1])
        let session = try #require(try alice.store.loadSession(for: bob.address))
        // A file from before records were sealed: plain records, schema version 1.
        let raw = try rawDatabase(alice)
        try raw.run("UPDATE signal_sessions SET record = ?", [.blob(session.serialized().unsafeCopiedBytes)])
        try raw.run(
            "UPDATE signal_local_identity SET key_pair = ?", [.blob(alice.identity.serialized().unsafeCopiedBytes)])
        // …and from before migrations were recorded by name: only `user_version` says v1.
        try raw.execute("DROP TABLE courier_migrations")
        try raw.execute("PRAGMA user_version = 1")

        let reopened = try alice.reopened()
        #expect(try reopened.store.identityKeyPair().identityKey == alice.identity.identityKey)
        #expect(try bob.cipher(to: alice).decrypt(reopened.cipher(to: bob).encrypt([2])) == [2])
        let formats = try raw.query(
            "SELECT substr(record, 1, 1) FROM signal_sessions UNION ALL SELECT substr(key_pair, 1, 1) FROM signal_local_identity"
        ) { $0.bytes(0) }
        #expect(formats == [[RecordSealer.format], [RecordSealer.format]])
        #expect(
            try raw.query("SELECT count(*) FROM sqlite_master WHERE name = 'signal_records_to_seal'") { $0.int(0) } == [
                0
            ])
    }
}
