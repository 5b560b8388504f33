import CourierCore
import CourierTesting
import Foundation
import Synchronization
import Testing

@testable import MessengerServer

/// The SQLite store's group commit: a group is stored in one transaction, and a send that cannot
/// be stored fails alone while the others of its group commit.
@Suite struct SendGroupCommitTests {
    static func message(_ id: String) -> OutgoingMessage {
        OutgoingMessage(
            sourceAccount: "alice", sourceDevice: 1, destinationAccount: "bob", conversationId: "c",
            clientMessageId: id,
            timestamp: 1,
            envelopes: [OutgoingEnvelope(destinationDeviceId: 1, destinationRegistrationId: 101, type: 2, content: [1])]
        )
    }

    static func makeStore() throws -> SQLiteMessengerStore {
        let store = try SQLiteMessengerStore(path: NSTemporaryDirectory() + "send-group-\(UUID().uuidString).sqlite")
        try store.createAccount(
            "bob", device: DeviceRecord(id: 1, registrationId: 101, name: "d1", passwordHash: "x", createdAt: 1))
        return store
    }

    static func pending(_ ids: [String]) -> [SendBatcher.Pending] {
        ids.map { SendBatcher.Pending(message: message($0), receivedAt: 1, expiresAt: Int64.max) }
    }

    @Test func aGroupIsStoredInOrder() throws {
        let store = try Self.makeStore()
        let batch = Self.pending(["m1", "m2", "m3"])
        store.commit(batch)
        let sequences = batch.map { pending -> Int64? in
            guard case .success(.stored(let serverSeq, _))? = pending.result else { return nil }
            return serverSeq
        }
        #expect(sequences == [1, 2, 3])
        let stored = try store.mailbox(accountId: "bob", deviceId: 1, afterId: 0, limit: 10)
        #expect(stored.count == 3)
    }

    @Test func aSendThatCannotBeStoredFailsAloneAndTheOthersCommit() throws {
        let store = try Self.makeStore()
        // A send the database refuses mid-group, as a constraint or a trigger would.
        try store.writingOne { db in
            try db.execute(
                """
                CREATE TRIGGER refuse_poison BEFORE INSERT ON sends WHEN NEW.client_message_id = 'poison'
                BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }
        let batch = Self.pending(["m1", "poison", "m2"])
        store.commit(batch)
        guard case .failure? = batch[1].result else {
            Issue.record("the refused send did not fail: \(String(describing: batch[1].result))")
            return
        }
        for pending in [batch[0], batch[2]] {
            guard case .success(.stored)? = pending.result else {
                Issue.record("a send beside the refused one was not stored: \(String(describing: pending.result))")
                return
            }
        }
        // Only the stored sends' envelopes are in the mailbox, and the refused one left no gap in
        // the ids or the conversation's numbers.
        let stored = try store.mailbox(accountId: "bob", deviceId: 1, afterId: 0, limit: 10)
        let first = try #require(stored.first?.id)
        #expect(stored.map(\.id) == [first, first + 1])
        guard case .success(.stored(let secondSeq, let secondIds))? = batch[2].result else { return }
        #expect(secondSeq == 2)
        #expect(secondIds == [1: first + 1])
        let again = try store.send(Self.message("m3"), receivedAt: 1, expiresAt: Int64.max)
        #expect(again == .stored(serverSeq: 3, mailboxIds: [1: try #require(stored.last?.id) + 1]))
    }

    /// A send's callback runs once its commit is done (its row readable by another connection),
    /// and at once, on the caller's thread, when the commit was done before it was set.
    @Test func aCommittedCallbackRunsAfterTheCommitOrAtOnceWhenItIsDone() async throws {
        let store = try Self.makeStore()
        let first = store.queueSend(Self.message("c1"), receivedAt: 1, expiresAt: Int64.max)
        let seen = await withCheckedContinuation { continuation in
            first.whenCommitted { outcome in
                let rows = (try? store.mailbox(accountId: "bob", deviceId: 1, afterId: 0, limit: 10))?.count
                continuation.resume(returning: (outcome, rows))
            }
        }
        guard case .success(.stored(let serverSeq, _)) = seen.0 else {
            Issue.record("the send was not stored: \(seen.0)")
            return
        }
        #expect(serverSeq == 1)
        #expect(seen.1 == 1)

        let second = store.queueSend(Self.message("c2"), receivedAt: 1, expiresAt: Int64.max)
        _ = await second.committed()
        let calledAtOnce = Mutex(false)
        second.whenCommitted { _ in calledAtOnce.withLock { $0 = true } }
        #expect(calledAtOnce.withLock { $0 })
    }

    /// Two callbacks and two waiters on one send are all told its outcome (a second of either
    /// replaced the first: the first callback was never called, the first waiter never resumed).
    @Test(.timeLimit(.minutes(1)), arguments: StoreBackend.allCases)
    func everyCallbackAndWaiterOfASendIsTold(backend: StoreBackend) async throws {
        let store: any MessengerStore
        switch backend {
        case .sqlite:
            store = try Self.makeStore()
        case .postgres:
            let url = try await TestPostgres.shared.makeDatabase()
            let postgres = try await offPool { try PostgresMessengerStore(url: url, connections: 2) }
            try postgres.createAccount(
                "bob", device: DeviceRecord(id: 1, registrationId: 101, name: "d1", passwordHash: "x", createdAt: 1))
            store = postgres
        }
        let send = store.queueSend(Self.message("m1"), receivedAt: 1, expiresAt: Int64.max)
        let (told, tell) = AsyncStream<Int>.makeStream()
        send.whenCommitted { _ in tell.yield(1) }
        send.whenCommitted { _ in tell.yield(2) }
        async let first = send.committed()
        async let second = send.committed()
        var callbacks: [Int] = []
        for await callback in told {
            callbacks.append(callback)
            if callbacks.count == 2 { break }
        }
        #expect(Set(callbacks) == [1, 2])
        for outcome in await [first, second] {
            guard case .success(.stored(let serverSeq, _)) = outcome else {
                Issue.record("the send was not stored: \(outcome)")
                continue
            }
            #expect(serverSeq == 1)
        }
    }
}
