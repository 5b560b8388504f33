import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Realtime
import SignalProtocol
import Testing

@testable import Messenger

@Suite(.timeLimit(.minutes(3)))
struct DeliveryAndNotificationTests {
    @Test func theSocketDeliversDecryptsAndAcknowledgesAfterTheCommit() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let transport = WebSocketTransport(client: sockets, url: bob.deliverySocketURL) { [bob] in
            [bob.authorizationHeader]
        }
        let listener = try await bob.listen(transport: transport)
        try await alice.send(text: "over the socket 1", to: bob.credentials.accountId)
        var debouncer = TypingDebouncer()
        if let signal = debouncer.keystroke(at: server.clientClock.uptimeNanoseconds) {
            try await alice.send(signal, to: bob.credentials.accountId)
        }
        try await alice.send(text: "over the socket 2", to: bob.credentials.accountId)

        var received: [IncomingEvent] = []
        for await event in listener.events {
            received.append(event)
            if received.count == 3 { break }
        }
        listener.stop()
        #expect(received.map(\.summary) == ["message over the socket 1", "typing true", "message over the socket 2"])
        let stored = try await bob.messages(
            in: MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId))
        #expect(stored.map(\.body) == ["over the socket 1", "over the socket 2"], "typing is never stored")
        await listener.finished()
        // Each ack went out before the socket closed; the server deletes acknowledged envelopes
        // in batches, off the socket's path, so the test waits for the mailbox to empty.
        #expect(
            try await poll { try await bob.api.pending(after: 0, limit: 10, as: bob.credentials).envelopes.isEmpty })
    }

    @Test func receiptsMoveTheSendersMessagesForwardAndReadReceiptsFollowTheSetting() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        var quiet = server.configuration("bob")
        quiet.sendsReadReceipts = false
        let bobLoud = try await server.register("bob")
        let bobQuiet = try MessengerClient.open(quiet, http: server.http)
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bobLoud.credentials.accountId)
        try await alice.send(text: "r1", to: bobLoud.credentials.accountId)
        try await alice.send(text: "r2", to: bobLoud.credentials.accountId)
        _ = try await bobLoud.sync()
        // One "delivered up to 2" for both messages, queued when they were stored.
        #expect(
            try await bobLoud.sendPendingReceipts() == [
                PendingReceipt(
                    conversationId: conversation, recipient: alice.credentials.accountId, kind: .delivered, upToSeq: 2)
            ])
        #expect(try await bobLoud.sendPendingReceipts().isEmpty, "a receipt is sent once")

        // Read with read receipts off: marked read here, nothing sent.
        #expect(try await bobQuiet.markRead(conversation, upToSeq: 1) == 1)
        let events = try await alice.sync()
        #expect(
            events == [
                .receipt(.delivered, conversation: conversation, upToSeq: 2, reader: bobLoud.credentials.accountId)
            ])
        #expect(try await alice.messages(in: conversation).map(\.state) == [.delivered, .delivered])
        #expect(try await bobQuiet.messages(in: conversation).map(\.state) == [.read, .delivered])

        // The setting on: the queued read receipt goes out.
        #expect(try await bobLoud.sendPendingReceipts().map(\.kind) == [.read])
        _ = try await alice.sync()
        #expect(try await alice.messages(in: conversation).map(\.state) == [.read, .delivered])
        #expect(try await alice.conversations().map(\.unreadCount) == [0], "her own messages are never unread")
        #expect(try await bobLoud.conversations().map(\.unreadCount) == [1])
    }

    @Test func theNotificationDecryptorStoresAcknowledgesAndShowsTheText() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        try await alice.send(text: "secret lunch plans", to: bob.credentials.accountId)
        try await alice.send(text: "at noon", to: bob.credentials.accountId)

        let alert = await NotificationDecryptor(configuration: server.configuration("bob"), http: server.http)
            .decrypt(deadline: .seconds(20))
        #expect(
            alert
                == NotificationAlert(
                    title: alice.credentials.accountId, body: "at noon", isGeneric: false, messageCount: 2))
        // The app, on the same store, finds them stored and nothing left on the server.
        #expect(try await bob.sync().isEmpty)
        #expect(
            try await bob.messages(
                in: MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
            ).map(\.body) == ["secret lunch plans", "at noon"])
        try server.expectNoPlaintext(["secret lunch plans", "at noon"])
    }

    @Test func theNotificationDecryptorFallsBackToTheGenericText() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        _ = try await server.register("bob")
        // Nothing pending.
        let decryptor = NotificationDecryptor(configuration: server.configuration("bob"), http: server.http)
        #expect(await decryptor.decrypt(deadline: .seconds(20)).isGeneric)
        // A server that does not answer: the deadline (on the injected clock) gives the generic text.
        let silent = try RawListener()
        var unreachable = server.configuration("bob")
        unreachable.serverURL = "http://127.0.0.1:\(silent.port)"
        let stalled = NotificationDecryptor(configuration: unreachable, http: HTTPClient(timeout: .seconds(60)))
        async let alert = stalled.decrypt(deadline: .seconds(5))
        try await server.clientClock.waitForSleepers(1)
        server.clientClock.advance(by: .seconds(5))
        #expect(await alert.isGeneric)
        // No device at all: generic as well.
        var missing = server.configuration("nobody")
        missing.directory = server.root + "/missing"
        #expect(await NotificationDecryptor(configuration: missing).decrypt(deadline: .seconds(5)).isGeneric)
    }

    @Test func keysAreRefilledWhenLowAndTheSignedPreKeyRotatesOnSchedule() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let bob = try await server.register("bob")
        #expect(try await bob.api.preKeyCount(as: bob.credentials) == 100)
        #expect(try await bob.maintainKeys() == 0)
        for index in 0..<95 {
            let alice = try await server.register("alice-\(index)")
            try await alice.send(text: "hi \(index)", to: bob.credentials.accountId)
        }
        #expect(try await bob.api.preKeyCount(as: bob.credentials) == 5)
        #expect(try await bob.maintainKeys() == 95)
        #expect(try await bob.api.preKeyCount(as: bob.credentials) == 100)
        #expect(try await bob.sync().bodies.count == 95)

        let first = try bob.storage.read { try DeviceKeys.currentSignedPreKeyId(db: $0) }
        server.clientClock.advance(by: .seconds(8 * 24 * 3600))
        _ = try await bob.maintainKeys()
        let second = try bob.storage.read { try DeviceKeys.currentSignedPreKeyId(db: $0) }
        #expect(first == 1 && second == 2)
        #expect(try bob.storage.signal.loadSignedPreKey(id: 1) != nil, "the previous signed prekey is kept")
        // A session opened against the new signed prekey works.
        let carol = try await server.register("carol")
        try await carol.send(text: "after rotation", to: bob.credentials.accountId)
        #expect(try await bob.sync().bodies == ["after rotation"])
    }
}

/// A TCP listener that accepts and never answers.
final class RawListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        listen(descriptor, 16)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}

extension IncomingEvent {
    var summary: String {
        switch self {
        case .message(let message): "message \(message.body)"
        case .typing(_, _, let started): "typing \(started)"
        default: "\(self)"
        }
    }
}

@Suite(.timeLimit(.minutes(3)))
struct KeyMaintenanceTests {
    @Test func keysLowOnTheSocketUploadsNewOneTimePreKeys() async throws {
        // Every fetch leaves the device "low" (fewer than 100), so the first session started with
        // Bob makes the server say keys/low on his socket.
        let server = try MessengerTestServer { $0.preKeyRefillThreshold = 100 }
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let listener = try await bob.listen(
            transport: WebSocketTransport(client: sockets, url: bob.deliverySocketURL) { [bob] in
                [bob.authorizationHeader]
            })
        try await alice.send(text: "use a prekey", to: bob.credentials.accountId)
        var iterator = listener.events.makeAsyncIterator()
        #expect(await iterator.next()?.isMessage("use a prekey") == true)
        var count = 0
        _ = try await poll(every: .milliseconds(20), timeout: .seconds(20)) {
            count = try await bob.api.preKeyCount(as: bob.credentials)
            return count >= 100
        }
        #expect(count == 100, "the listener uploaded the one key that was handed out")
        listener.stop()
    }

    @Test func processedEnvelopeIdsAreForgottenAfterTheServersLifetime() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        try await alice.send(text: "remembered", to: bob.credentials.accountId)
        _ = try await bob.sync()
        let remembered = {
            try bob.storage.read { try $0.query("SELECT COUNT(*) FROM messenger_processed_envelopes") { $0.int(0) } }
        }
        #expect(try remembered() == [1])
        server.clientClock.advance(by: .seconds(30 * 24 * 3600))
        _ = try await bob.maintainKeys()
        #expect(try remembered() == [1], "still inside the server's envelope lifetime")
        server.clientClock.advance(by: .seconds(2 * 24 * 3600))
        _ = try await bob.maintainKeys()
        #expect(try remembered() == [0])
    }
}

@Suite(.timeLimit(.minutes(3)))
struct DeviceStorageTests {
    @Test func eachDeviceRegistersAndLinksWithItsOwnRandomSecret() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let phone = try await server.register("phone")
        let laptop = try await server.link("laptop", to: phone)
        let secrets = [phone.credentials.password, laptop.credentials.password]
        for secret in secrets {
            let bytes = try #require(Base64.decodeStrict(secret), "not strict base64: \(secret)")
            #expect(bytes.count == 32)
            #expect(Set(bytes).count >= 16)
        }
        #expect(secrets[0] != secrets[1])
    }

    @Test func thePasswordIsSealedAndTheDeviceReopens() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let bob = try await server.register("bob")
        let directory = server.configuration("bob").directory
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory)
        where name.hasPrefix("messenger.sqlite") {
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
        }
        #expect(!bytes.isEmpty)
        #expect(bytes.range(of: Data(bob.credentials.password.utf8)) == nil, "the password is not in clear")
        #expect(bytes.range(of: Data(bob.credentials.accountId.utf8)) != nil, "the scan does see clear text")
        let reopened = try MessengerClient.open(server.configuration("bob"), http: server.http)
        #expect(reopened.credentials == bob.credentials)
        // Another key does not open the store at all.
        var wrongKey = server.configuration("bob")
        wrongKey.keyProvider = try InMemoryKeyProvider()
        #expect(throws: (any Error).self) { try MessengerClient.open(wrongKey) }
        #expect(try await reopened.maintainKeys() == 0, "the reopened device signs in")
    }
}
