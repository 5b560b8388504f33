import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

@testable import MessengerServer

/// A caught-up socket is handed new envelopes by the send committer, in mailbox order, with no
/// wake-up or mailbox read; anything it cannot take there (a full window) goes back to the
/// mailbox passes, and no envelope overtakes an earlier one.
@Suite(.timeLimit(.minutes(2)))
struct HandOverAtCommitTests {
    /// Alice, and Bob's socket on `harness`, connected and caught up: the pass that sent
    /// queue/empty read to the mailbox's end and has finished.
    static func bobCaughtUp(on harness: MessengerHarness, client: WebSocketClient) async throws -> (
        alice: TestDevice, bob: TestDevice, device: AuthenticatedDevice, reader: DeliveryReader
    ) {
        let alice = try await harness.register()
        let bob = try await harness.register()
        let device = AuthenticatedDevice(accountId: bob.accountId, deviceId: bob.deviceId)
        let reader = try await harness.connectEmpty(bob, client: client)
        #expect(await poll { harness.messenger.hub.session(for: device)?.isCaughtUp == true })
        return (alice, bob, device, reader)
    }

    @Test(arguments: StoreBackend.allCases) func aCaughtUpSocketTakesEnvelopesAtTheCommitAndAFullWindowFallsBack(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness.withWindowOfFour(backend: backend)
        defer { harness.stop() }
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let (alice, bob, device, connected) = try await Self.bobCaughtUp(on: harness, client: client)
        var reader = connected

        // Ten sends, none acknowledged yet: four fill the window at their commits; the fifth is
        // refused there, and the rest wait in the mailbox behind it.
        for index in 0..<10 {
            _ = try await harness.send(
                from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "w\(index)")
        }
        var contents: [String] = []
        while contents.count < 10 {
            guard let frame = await reader.next() else { break }
            contents.append(frame.envelopeContent ?? "")
            try await DeliverySocketTests.ack(frame, on: reader.socket)
        }
        #expect(contents == (0..<10).map { "w\($0) for 1" })
        let handedOverBySQLite = backend == .sqlite ? 4 : 0
        #expect(harness.messenger.envelopesHandedOver.load(ordering: .relaxed) == handedOverBySQLite)

        // The passes that sent the rest read to the end again: the next send is handed over.
        #expect(await poll { harness.messenger.hub.session(for: device)?.isCaughtUp == true })
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "live")
        let live = await reader.next()
        #expect(live?.envelopeContent == "live for 1")
        #expect(
            harness.messenger.envelopesHandedOver.load(ordering: .relaxed) == handedOverBySQLite
                + (backend == .sqlite ? 1 : 0))
        #expect(harness.messenger.metricsText().contains("courier_messenger_envelopes_handed_over_total"))
    }

    /// An envelope a pass has already sent (its id not above the last sent), offered again at
    /// its commit, is left alone: the socket stays caught up and no pass starts for it.
    @Test func anEnvelopeAlreadySentIsNotOfferedAgainNorStartsAPass() async throws {
        let harness = try await MessengerHarness(backend: .sqlite)
        defer { harness.stop() }
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let (alice, bob, device, connected) = try await Self.bobCaughtUp(on: harness, client: client)
        var reader = connected
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "x")
        #expect(await reader.next()?.envelopeContent == "x for 1")
        #expect(await poll { harness.messenger.hub.session(for: device)?.isCaughtUp == true })
        let session = try #require(harness.messenger.hub.session(for: device))
        // Not acknowledged: still in the mailbox, and the last envelope sent on the socket.
        let stored = try #require(
            try harness.store.mailbox(accountId: bob.accountId, deviceId: 1, afterId: 0, limit: 1).first)
        let passes = session.passesStarted
        #expect(!session.handOver(stored))
        #expect(session.passesStarted == passes)
        #expect(session.isCaughtUp)
    }

    /// Mailbox ids are in commit order only while one store object writes the file: a second
    /// one (here, or in another process) does not hand envelopes over.
    @Test func onlyTheFirstStoreOpenOnAFileIsItsSoleMailboxWriter() throws {
        let directory = NSTemporaryDirectory() + "hand-over-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try SQLiteMessengerStore(path: directory + "/messenger.sqlite")
        let second = try SQLiteMessengerStore(path: directory + "/messenger.sqlite")
        #expect(first.isSoleMailboxWriter)
        #expect(!second.isSoleMailboxWriter)
        #expect(try SQLiteMessengerStore(path: ":memory:").isSoleMailboxWriter)
    }
}
