import CourierCore
import CourierTesting
import Foundation
import Testing

@testable import MessengerServer

/// Acknowledgements are deleted together: every ack that arrives within the batch interval,
/// from any device, in one transaction.
@Suite struct AckBatcherTests {
    /// A store with `accounts` accounts of one device each and one envelope in each mailbox:
    /// each device and its envelope's mailbox id.
    static func storeWithEnvelopes(accounts: Int) throws -> (SQLiteMessengerStore, [(AuthenticatedDevice, Int64)]) {
        let store = try SQLiteMessengerStore(path: NSTemporaryDirectory() + "acks-\(UUID().uuidString).sqlite")
        var envelopes: [(AuthenticatedDevice, Int64)] = []
        for index in 1...accounts {
            let account = "bob-\(index)"
            try store.createAccount(
                account, device: DeviceRecord(id: 1, registrationId: 101, name: "d1", passwordHash: "x", createdAt: 1))
            let outcome = try store.send(
                OutgoingMessage(
                    sourceAccount: "alice", sourceDevice: 1, destinationAccount: account, conversationId: "c",
                    clientMessageId: "m", timestamp: 1,
                    envelopes: [
                        OutgoingEnvelope(destinationDeviceId: 1, destinationRegistrationId: 101, type: 2, content: [1])
                    ]),
                receivedAt: 1, expiresAt: Int64.max)
            guard case .stored(_, let ids) = outcome, let id = ids[1] else { throw StoreSetupFailed() }
            envelopes.append((AuthenticatedDevice(accountId: account, deviceId: 1), id))
        }
        return (store, envelopes)
    }

    struct StoreSetupFailed: Error {}

    /// Envelopes still in the mailboxes of `devices`.
    static func pending(_ store: SQLiteMessengerStore, _ devices: [(AuthenticatedDevice, Int64)]) throws -> Int {
        try devices.reduce(0) { count, entry in
            count + (try store.mailbox(accountId: entry.0.accountId, deviceId: 1, afterId: 0, limit: 10).count)
        }
    }

    @Test func acksOfSeveralDevicesWithinTheIntervalAreDeletedInOneFlush() throws {
        let (store, envelopes) = try Self.storeWithEnvelopes(accounts: 3)
        // An interval no test run reaches: the flush below is the only one.
        let acks = AckBatcher(store: store, interval: .seconds(3_600))
        for (device, id) in envelopes { acks.acknowledge(id, for: device) }
        #expect(try Self.pending(store, envelopes) == 3)
        acks.flush()
        #expect(try Self.pending(store, envelopes) == 0)
        #expect(acks.flushes == 1)
        // Nothing pending: no empty transaction.
        acks.flush()
        #expect(acks.flushes == 1)
    }

    @Test func anAckIsDeletedWhenTheIntervalEndsWithNothingElseArriving() async throws {
        let (store, envelopes) = try Self.storeWithEnvelopes(accounts: 1)
        let acks = AckBatcher(store: store, interval: .milliseconds(1))
        acks.acknowledge(envelopes[0].1, for: envelopes[0].0)
        #expect(await poll { (try? Self.pending(store, envelopes)) == 0 })
        #expect(acks.flushes == 1)
    }

    @Test func theStoreDeletesSeveralDevicesAcksInOneCall() throws {
        let (store, envelopes) = try Self.storeWithEnvelopes(accounts: 2)
        let deleted = try store.acknowledge(
            envelopes.map { (accountId: $0.0.accountId, deviceId: 1, ids: [$0.1, 999_999]) })
        // The unknown id deletes nothing; each device's envelope is gone.
        #expect(deleted == 2)
        #expect(try Self.pending(store, envelopes) == 0)
    }

    @Test func throughAnyStoreSQLiteDeletesEveryDevicesAcksInOneTransaction() throws {
        let (store, envelopes) = try Self.storeWithEnvelopes(accounts: 2)
        // The second device's delete fails: in one transaction, the first's is undone with it
        // (one transaction per device would have kept it).
        try store.writingOne { db in
            try db.execute(
                """
                CREATE TRIGGER refuse_second BEFORE DELETE ON mailbox WHEN OLD.account_id = 'bob-2'
                BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }
        let any: any MessengerStore = store
        #expect(throws: MessengerStoreError.self) {
            try any.acknowledge(envelopes.map { (accountId: $0.0.accountId, deviceId: 1, ids: [$0.1]) })
        }
        #expect(try Self.pending(store, envelopes) == 2)
    }
}
