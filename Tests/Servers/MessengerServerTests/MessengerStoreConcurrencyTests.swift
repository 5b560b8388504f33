import CourierCore
import CourierPostgres
import CourierTesting
import Foundation
import MessengerServer
import Testing

/// What many server instances on one database must not get wrong, at the store: each one-time
/// prekey goes to one caller and none are withheld, a mailbox row that commits late is never
/// skipped by a catch-up cursor, and of the instances that claim a device's push at once one wins.
@Suite(.timeLimit(.minutes(2)))
struct MessengerStoreConcurrencyTests {
    static func device(_ id: Int) -> DeviceRecord {
        DeviceRecord(id: id, registrationId: 100 + id, name: "d\(id)", passwordHash: "x", createdAt: 1)
    }

    static func makeStore(_ backend: StoreBackend) async throws -> (store: any MessengerStore, url: String?) {
        switch backend {
        case .sqlite:
            let path = NSTemporaryDirectory() + "messenger-concurrency-\(UUID().uuidString).sqlite"
            return (try SQLiteMessengerStore(path: path), nil)
        case .postgres:
            let url = try await TestPostgres.shared.makeDatabase()
            return (try await offPool { try PostgresMessengerStore(url: url, connections: 32) }, url)
        }
    }

    static func message(to account: String, id: String) -> OutgoingMessage {
        OutgoingMessage(
            sourceAccount: "alice", sourceDevice: 1, destinationAccount: account, conversationId: "c-\(id)",
            clientMessageId: id, timestamp: 1,
            envelopes: [OutgoingEnvelope(destinationDeviceId: 1, destinationRegistrationId: 101, type: 2, content: [1])]
        )
    }

    @Test(arguments: StoreBackend.allCases)
    func concurrentPushClaimsLetOneCallerPushPerIntervalUntilTheDeviceConnects(backend: StoreBackend) async throws {
        let (store, _) = try await Self.makeStore(backend)
        try store.createAccount("bob", device: Self.device(1))
        let start = DispatchSemaphore(value: 0)
        let claims = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await offPool {
                        start.wait()
                        return try store.claimPush(
                            accountId: "bob", deviceId: 1, now: 1_000, intervalMilliseconds: 60_000)
                    }
                }
            }
            for _ in 0..<16 { start.signal() }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(claims.filter { $0 }.count == 1)
        let claim = { (now: Int64) in
            try store.claimPush(accountId: "bob", deviceId: 1, now: now, intervalMilliseconds: 60_000)
        }
        #expect(try claim(60_999) == false)
        #expect(try claim(61_000) == true)
        try store.clearPushClaim(accountId: "bob", deviceId: 1)
        #expect(try claim(61_001) == true)
        #expect(try store.claimPush(accountId: "nobody", deviceId: 1, now: 1, intervalMilliseconds: 0) == false)
    }

    @Test(arguments: StoreBackend.allCases)
    func concurrentFetchesHandOutEveryOneTimePreKeyOnceAndNoneAreWithheld(backend: StoreBackend) async throws {
        let (store, _) = try await Self.makeStore(backend)
        try store.createAccount("bob", device: Self.device(1))
        try store.storeKeys(
            accountId: "bob", deviceId: 1, identityKey: [5] + Array(repeating: 1, count: 32), signedPreKey: nil,
            oneTimePreKeys: (1...20).map { OneTimePreKeyUpload(keyId: $0, publicKey: [5, UInt8($0)]) })
        let start = DispatchSemaphore(value: 0)
        let taken = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try await offPool {
                        start.wait()
                        return try store.takePreKeys(accountId: "bob", deviceId: 1, oneTimePreKeys: true)
                            .first?.oneTimePreKey?.keyId
                    }
                }
            }
            for _ in 0..<32 { start.signal() }
            return try await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        let keys = taken.compactMap { $0 }
        #expect(keys.sorted() == Array(1...20))
        #expect(taken.count - keys.count == 12)
    }

    /// A sender that took mailbox id 1 and has not committed yet holds the next sender back, so
    /// that id 2 cannot become visible first: a reader at `after=0` that saw 2 would move its
    /// cursor past 1 and never see it.
    @Test func aMailboxRowCommittedLateIsNeverSkippedByTheCursor() async throws {
        let (store, address) = try await Self.makeStore(.postgres)
        let url = try #require(address)
        try store.createAccount("bob", device: Self.device(1))
        let slowBox = try await offPool { HandedOver(try PostgresConnection(url: url)) }
        let first = try await offPool {
            let slow = slowBox.value
            try slow.execute("BEGIN")
            return try slow.query(
                """
                WITH next AS (
                    UPDATE devices SET mailbox_seq = mailbox_seq + 1
                    WHERE account_id = 'bob' AND device_id = 1 RETURNING mailbox_seq)
                INSERT INTO mailbox(account_id, device_id, id, envelope, expires_at)
                SELECT 'bob', 1, mailbox_seq, '\\x01', 9000000000000 FROM next RETURNING id
                """
            ) { $0.int(0) }.first
        }
        #expect(first == 1)
        let finished = CompletionFlag()
        let second = Task {
            defer { finished.set() }
            return try await offPool {
                try store.send(Self.message(to: "bob", id: "m2"), receivedAt: 1, expiresAt: 9_000_000_000_000)
            }
        }
        // Either the second waits on the first's lock (right) or it has already committed (the trap).
        #expect(await poll { await TestPostgres.isWaitingOnALock(url: url, unless: finished) })
        #expect(!finished.isSet)
        #expect(try store.mailbox(accountId: "bob", deviceId: 1, afterId: 0, limit: 10).isEmpty)
        try await offPool { try slowBox.value.execute("COMMIT") }
        let outcome = try await second.value
        #expect(outcome == .stored(serverSeq: 1, mailboxIds: [1: 2]))
        #expect(try store.mailbox(accountId: "bob", deviceId: 1, afterId: 0, limit: 10).map(\.id) == [1, 2])
    }
}
