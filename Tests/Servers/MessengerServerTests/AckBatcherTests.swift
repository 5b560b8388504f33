import CourierCore
import CourierPostgres
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
        return (store, try envelopes(accounts: accounts, in: store))
    }

    /// `accounts` accounts of one device each in `store`, and one envelope in each mailbox.
    static func envelopes(accounts: Int, in store: any MessengerStore) throws -> [(AuthenticatedDevice, Int64)] {
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
        return envelopes
    }

    struct StoreSetupFailed: Error {}

    /// Envelopes still in the mailboxes of `devices`.
    static func pending(_ store: any MessengerStore, _ devices: [(AuthenticatedDevice, Int64)]) throws -> Int {
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

    @Test(arguments: StoreBackend.allCases)
    func throughAnyStoreEveryDevicesAcksAreDeletedInOneTransaction(backend: StoreBackend) async throws {
        // The second device's delete fails: in one transaction, the first's is undone with it
        // (one transaction per device would have kept it).
        let store: any MessengerStore
        switch backend {
        case .sqlite:
            let sqlite = try SQLiteMessengerStore(path: NSTemporaryDirectory() + "acks-\(UUID().uuidString).sqlite")
            try sqlite.writingOne { db in
                try db.execute(
                    """
                    CREATE TRIGGER refuse_second BEFORE DELETE ON mailbox WHEN OLD.account_id = 'bob-2'
                    BEGIN SELECT RAISE(ABORT, 'refused'); END
                    """)
            }
            store = sqlite
        case .postgres:
            let url = try await TestPostgres.shared.makeDatabase()
            let postgres = try await offPool { try PostgresMessengerStore(url: url, connections: 2) }
            try postgres.writingOne { db in
                try db.execute(
                    """
                    CREATE FUNCTION refuse_second() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN IF OLD.account_id = 'bob-2' THEN RAISE EXCEPTION 'refused'; END IF; RETURN OLD; END $$;
                    CREATE TRIGGER refuse_second BEFORE DELETE ON mailbox FOR EACH ROW EXECUTE FUNCTION refuse_second();
                    """)
            }
            store = postgres
        }
        let envelopes = try Self.envelopes(accounts: 2, in: store)
        #expect(throws: MessengerStoreError.self) {
            try store.acknowledge(envelopes.map { (accountId: $0.0.accountId, deviceId: 1, ids: [$0.1]) })
        }
        #expect(try Self.pending(store, envelopes) == 2)
    }
}
