import Foundation
import Synchronization
import Testing

@testable import SignalProtocol

/// One store used from many threads at once: every update runs in a store transaction, so no
/// sender-key iteration is handed out twice and a one-time prekey opens one session only.
struct StoreConcurrencyTests {
    /// Holds each caller after it has read a prekey until `parties` callers have read it (or the
    /// others gave up), which is the interleaving a race produces when nothing serialises decrypts.
    final class RendezvousPreKeyStore: PreKeyStore {
        let base: any PreKeyStore
        let parties: Int
        let arrived = Atomic(0)
        let finished = Atomic(0)

        init(base: any PreKeyStore, parties: Int) {
            self.base = base
            self.parties = parties
        }

        func loadPreKey(id: UInt32) throws -> PreKeyRecord? {
            let record = try base.loadPreKey(id: id)
            arrived.add(1, ordering: .sequentiallyConsistent)
            while arrived.load(ordering: .sequentiallyConsistent) + finished.load(ordering: .sequentiallyConsistent)
                < parties
            {}
            return record
        }
        func storePreKey(_ record: PreKeyRecord) throws { try base.storePreKey(record) }
        func removePreKey(id: UInt32) throws { try base.removePreKey(id: id) }
    }

    @Test(arguments: StoreBackend.allCases)
    func oneTimePreKeyOpensOnlyOneOfConcurrentSessions(backend: StoreBackend) throws {
        let bob = try BackendDevice(name: "bob", backend: backend)
        let bundle = try bob.bundle(preKeyId: 200, signedPreKeyId: 50)
        let senders = try (0..<2).map { try BackendDevice(name: "sender\($0)", backend: .inMemory) }
        let openings = try senders.map { sender -> CiphertextMessage in
            try SessionBuilder(stores: sender.store.stores, remoteAddress: bob.address).process(bundle: bundle)
            return try sender.cipher(to: bob).encrypt([7])
        }
        let plain = bob.store.stores
        let rendezvous = RendezvousPreKeyStore(base: plain.preKeys, parties: senders.count)
        let stores = SignalStores(
            sessions: plain.sessions, preKeys: rendezvous, signedPreKeys: plain.signedPreKeys,
            identities: plain.identities, transactions: plain.transactions)
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: senders.count) { index in
            defer { rendezvous.finished.add(1, ordering: .sequentiallyConsistent) }
            do {
                let plaintext = try SessionCipher(stores: stores, remoteAddress: senders[index].address)
                    .decrypt(openings[index])
                outcomes.withLock { $0.append(plaintext == [7] ? "ok" : "wrong plaintext") }
            } catch let error as SignalProtocolError {
                outcomes.withLock { $0.append("\(error.code)") }
            } catch {
                outcomes.withLock { $0.append("\(error)") }
            }
        }
        #expect(outcomes.withLock { $0 }.sorted() == ["missingPreKey", "ok"])
        #expect(try bob.store.loadPreKey(id: 200) == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func concurrentEncryptsNeverReuseAnIteration(backend: StoreBackend) throws {
        let alice = try BackendDevice(name: "alice", backend: backend)
        let name = SenderKeyName(groupId: "family-chat", sender: alice.address)
        let group = GroupCipher(store: alice.store)
        _ = try group.distributionMessage(for: name)
        let iterations = Mutex<[UInt32]>([])
        let failures = Mutex<[String]>([])
        let threads = 8
        let perThread = 10
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread {
                do {
                    let message = try group.encrypt([1], for: name)
                    iterations.withLock { $0.append(message.iteration) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let used = iterations.withLock { $0 }
        #expect(used.count == threads * perThread)
        #expect(Set(used).count == used.count)
        #expect(Set(used) == Set((0..<UInt32(threads * perThread))))
    }

    @Test(arguments: StoreBackend.allCases)
    func concurrentDecryptsOfOneMessageSucceedOnce(backend: StoreBackend) throws {
        let pair = try GroupPair(backend)
        for round in 0..<10 {
            let message = try pair.aliceGroup.encrypt([UInt8(round)], for: pair.name)
            let outcomes = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do {
                    let plaintext = try pair.bobGroup.decrypt(message, from: pair.name)
                    outcomes.withLock { $0.append(plaintext == [UInt8(round)] ? "ok" : "wrong plaintext") }
                } catch let error as SignalProtocolError {
                    outcomes.withLock { $0.append("\(error.code)") }
                } catch {
                    outcomes.withLock { $0.append("\(error)") }
                }
            }
            #expect(outcomes.withLock { $0 }.sorted() == Array(repeating: "duplicateMessage", count: 7) + ["ok"])
        }
    }
}
