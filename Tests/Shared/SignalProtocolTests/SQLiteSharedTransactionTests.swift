import CourierCore
import Foundation
import Testing

@testable import SignalProtocol

/// `sharedTransaction`: a sibling module's tables in the store's file commit and roll back with the
/// session state, the consumed one-time prekey and the sender keys.
struct SQLiteSharedTransactionTests {
    struct Rejected: Error {}

    @Test func theCallersRowsCommitAndRollBackWithTheDecrypt() throws {
        let (alice, bob) = try makeBackendPair(.sqliteFile)
        let store = try #require(bob.store as? SQLiteSignalStore)
        try store.sharedTransaction { _, _, db in try db.execute("CREATE TABLE inbox (body BLOB)") }
        let opening = try alice.cipher(to: bob).encrypt([7])
        guard case .preKey(let message) = opening, let preKeyId = message.preKeyId else {
            Issue.record("the first message does not open a session with a one-time prekey")
            return
        }

        #expect(throws: Rejected.self) {
            try store.sharedTransaction { stores, _, db in
                try SessionCipher(stores: stores, remoteAddress: alice.address).decrypt(opening) { plaintext in
                    try db.run("INSERT INTO inbox (body) VALUES (?)", [.blob(plaintext)])
                    throw Rejected()
                }
            }
        }
        #expect(try store.sharedRead { try $0.query("SELECT COUNT(*) FROM inbox") { $0.int(0) } } == [0])
        #expect(try store.loadPreKey(id: preKeyId) != nil)

        try store.sharedTransaction { stores, _, db in
            try SessionCipher(stores: stores, remoteAddress: alice.address).decrypt(opening) { plaintext in
                try db.run("INSERT INTO inbox (body) VALUES (?)", [.blob(plaintext)])
            }
        }
        #expect(try store.sharedRead { try $0.query("SELECT body FROM inbox") { $0.bytes(0) } } == [[7]])
        #expect(try store.loadPreKey(id: preKeyId) == nil)
    }

    @Test func theStoreRefusesItsOwnMethodsInsideTheTransaction() throws {
        let bob = try BackendDevice(name: "bob", backend: .sqliteFile)
        let store = try #require(bob.store as? SQLiteSignalStore)
        #expect(throws: SignalProtocolError.self) {
            try store.sharedTransaction { _, _, _ in _ = try store.loadPreKey(id: 1) }
        }
    }
}
