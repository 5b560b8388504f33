import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Realtime
import Testing

/// Counts `.outbox(_, .sent, _)` events of `connection` until `count` distinct items are sent,
/// calling `onAck` with the running count after each.
func waitForAcks(
    _ connection: RealtimeConnection, count: Int, onAck: (Int) async throws -> Void = { _ in }
) async rethrows {
    var acked = Set<String>()
    guard count > 0 else { return }
    for await event in connection.events {
        guard case .outbox(let clientId, .sent, _) = event, acked.insert(clientId).inserted else { continue }
        try await onAck(acked.count)
        if acked.count >= count { return }
    }
}

/// Counts `.received` events of `connection` until `count` arrived.
func waitForReceived(_ connection: RealtimeConnection, count: Int) async {
    var received = 0
    guard count > 0 else { return }
    for await event in connection.events {
        guard case .received = event else { continue }
        received += 1
        if received >= count { return }
    }
}

/// Against the real messenger server on loopback, through a fault-injecting proxy.
@Suite(.timeLimit(.minutes(3)), .serialized)
struct RealtimeMessengerTests {
    @Test func aThousandMessagesThroughCutsAndTwoRestartsArriveExactlyOnceInServerSeqOrder() async throws {
        let scene = try await LiveScene()
        defer { scene.close() }
        let (messenger, alice, bob, client) = (scene.messenger, scene.alice, scene.bob, scene.client)
        let aliceStore = try RealtimeStore(path: messenger.directory + "/alice.sqlite")
        let bobStore = try RealtimeStore(path: messenger.directory + "/bob.sqlite")
        let sender = alice.connection(messenger, client: client, store: aliceStore, seed: 1)
        let receiver = bob.connection(messenger, client: client, store: bobStore, seed: 2)
        let total = 1_000
        for index in 0..<total { try aliceStore.enqueue(destination: bob.accountId, payload: bob.payload("m\(index)")) }
        // Cuts at random points, restarts at a third and two thirds.
        var random = JitterSource(seed: 2_026)
        let cuts = Set((0..<6).map { _ in Int.random(in: 50..<950, using: &random) })
        await receiver.start()
        await sender.start()
        try await waitForAcks(sender, count: total) { acked in
            if cuts.contains(acked) { messenger.proxy.cut() }
            if acked == 333 || acked == 666 { try await messenger.restart() }
        }
        await waitForReceived(receiver, count: total)
        let received = try bobStore.received(conversation: "c1")
        #expect(received.count == total)
        #expect(received.map(\.serverSeq) == (1...Int64(total)).map { $0 })
        let contents = Set(
            received.compactMap { $0.body["content"]?.stringValue.flatMap(Base64.decode) }.map {
                String(decoding: $0, as: UTF8.self)
            })
        #expect(contents == Set((0..<total).map { "m\($0)" }))
        let outbox = try aliceStore.outbox(destination: bob.accountId)
        #expect(outbox.allSatisfy { $0.state == .sent })
        #expect(Set(outbox.compactMap(\.serverSeq)).count == total)
        #expect(messenger.proxy.acceptedCount >= 2 + cuts.count)
        await sender.stop()
        await receiver.stop()
    }

    @Test func aPoisonItemGoesToFailedAndTheRestFlow() async throws {
        let scene = try await LiveScene()
        defer { scene.close() }
        let (messenger, alice, bob, client) = (scene.messenger, scene.alice, scene.bob, scene.client)
        let store = try RealtimeStore(path: ":memory:")
        var outbox = OutboxPolicy()
        outbox.maximumAttempts = 3
        outbox.retryBase = .milliseconds(10)
        outbox.retryCap = .milliseconds(50)
        let sender = alice.connection(messenger, client: client, store: store, outbox: outbox)
        try store.enqueue(destination: bob.accountId, payload: bob.payload("first"))
        let poison = try store.enqueue(destination: "no-such-account", payload: bob.payload("poison"))
        for index in 0..<20 { try store.enqueue(destination: bob.accountId, payload: bob.payload("m\(index)")) }
        await sender.start()
        var failed: [String] = []
        var sent = 0
        for await event in sender.events {
            if case .outbox(let id, .failed, _) = event { failed.append(id) }
            if case .outbox(_, .sent, _) = event { sent += 1 }
            if sent == 21 && !failed.isEmpty { break }
        }
        #expect(failed == [poison.clientId])
        let item = try #require(try store.outboxItem(poison.clientId))
        #expect(item.attempts == 3)
        #expect(item.lastError == "status 404")
        await sender.stop()
    }

    @Test func aClientStoppedMidSendLosesNothingWhenItsStoreIsOpenedAgain() async throws {
        let scene = try await LiveScene()
        defer { scene.close() }
        let (messenger, alice, bob, client) = (scene.messenger, scene.alice, scene.bob, scene.client)
        let path = messenger.directory + "/alice.sqlite"
        let total = 200
        do {
            let store = try RealtimeStore(path: path)
            for index in 0..<total { try store.enqueue(destination: bob.accountId, payload: bob.payload("m\(index)")) }
            let first = alice.connection(messenger, client: client, store: store)
            await first.start()
            try await waitForAcks(first, count: 50)
            // Gone mid-flush: the socket breaks and the process's objects are dropped.
            messenger.proxy.cut()
            await first.stop()
        }
        let reopened = try RealtimeStore(path: path)
        let pending = try reopened.outbox(destination: bob.accountId).filter { $0.state == .sending }.count
        #expect(pending > 0 && pending <= total - 50)
        let second = alice.connection(messenger, client: client, store: reopened, seed: 3)
        await second.start()
        try await waitForAcks(second, count: pending)
        let bobStore = try RealtimeStore(path: ":memory:")
        let receiver = bob.connection(messenger, client: client, store: bobStore)
        await receiver.start()
        await waitForReceived(receiver, count: total)
        #expect(try bobStore.received(conversation: "c1").map(\.serverSeq) == (1...Int64(total)).map { $0 })
        await second.stop()
        await receiver.stop()
    }
}
