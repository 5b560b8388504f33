import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import SignalProtocol
import Testing

@testable import Messenger

@Suite(.timeLimit(.minutes(3)))
struct SesameTests {
    @Test func everyDeviceOfBothAccountsSeesEveryMessage() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alicePhone = try await server.register("alice-phone")
        let aliceTablet = try await server.link("alice-tablet", to: alicePhone)
        let bobPhone = try await server.register("bob-phone")
        let bobLaptop = try await server.link("bob-laptop", to: bobPhone)
        let alice = alicePhone.credentials.accountId
        let bob = bobPhone.credentials.accountId
        #expect(aliceTablet.credentials.deviceId == 2)

        try await alicePhone.send(text: "sesame-one from the phone", to: bob)
        try await bobLaptop.send(text: "sesame-two from the laptop", to: alice)
        try await aliceTablet.send(text: "sesame-three from the tablet", to: bob)

        let conversation = MessengerClient.conversationId(alice, bob)
        let expected = ["sesame-one from the phone", "sesame-two from the laptop", "sesame-three from the tablet"]
        for device in [alicePhone, aliceTablet, bobPhone, bobLaptop] {
            _ = try await device.sync()
            let stored = try await device.messages(in: conversation)
            #expect(stored.map(\.body) == expected, "device \(device.credentials)")
            #expect(stored.map(\.serverSeq) == [1, 2, 3])
        }
        try server.expectNoPlaintext(expected)
    }

    @Test func anOfflineDeviceGetsEverythingInOrderOnReconnect() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let texts = (1...25).map { "offline-\($0)" }
        for text in texts { try await alice.send(text: text, to: bob.credentials.accountId) }

        let events = try await bob.sync()
        #expect(events.bodies == texts)
        let stored = try await bob.messages(
            in: MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId))
        #expect(stored.map(\.body) == texts)
        #expect(stored.compactMap(\.serverSeq) == Array(1...25))
        #expect(try await bob.sync().isEmpty, "acknowledged envelopes are gone from the server")
        try server.expectNoPlaintext(texts)
    }

    @Test func aDeviceLinkedLaterGetsNewMessagesThroughThe409() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bobPhone = try await server.register("bob-phone")
        let bob = bobPhone.credentials.accountId
        try await alice.send(text: "before the laptop", to: bob)
        let bobLaptop = try await server.link("bob-laptop", to: bobPhone)

        // Alice's roster knows only Bob's phone: the server answers 409 missing [2], Alice fetches
        // the laptop's bundle and sends again with the same client message id.
        let sent = try await alice.send(text: "after the laptop", to: bob)
        #expect(sent.serverSeq == 2)
        #expect(try await bobLaptop.sync().bodies == ["after the laptop"])
        #expect(try await bobPhone.sync().bodies == ["before the laptop", "after the laptop"])
    }

    @Test func aReplacedDeviceTakesThe410PathAndARemovedOneThe409Extra() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bobPhone = try await server.register("bob-phone")
        let bob = bobPhone.credentials.accountId
        let oldLaptop = try await server.link("bob-laptop-1", to: bobPhone)
        try await alice.send(text: "to both", to: bob)
        #expect(try await oldLaptop.sync().bodies == ["to both"])

        // Removed and linked again: the new laptop gets device id 2 with another registration id,
        // so Alice's session with device 2 is stale (410) and is rebuilt from a new bundle.
        try await bobPhone.removeDevice(2)
        let newLaptop = try await server.link("bob-laptop-2", to: bobPhone)
        #expect(newLaptop.credentials.deviceId == 2)
        try await alice.send(text: "to the new laptop", to: bob)
        #expect(try await newLaptop.sync().bodies == ["to the new laptop"])

        // Removed for good: 409 extra [2]; the device is dropped from the roster and the send goes on.
        try await bobPhone.removeDevice(2)
        try await alice.send(text: "phone only", to: bob)
        #expect(try await bobPhone.sync().bodies == ["to both", "to the new laptop", "phone only"])
        // Its session stays a week for late messages, then goes.
        let laptop = ProtocolAddress(name: bob, deviceId: 2)
        server.clientClock.advance(by: .seconds(6 * 24 * 3600))
        _ = try await alice.maintainKeys()
        #expect(try SessionCipher(stores: alice.storage.signal.stores, remoteAddress: laptop).hasSession())
        server.clientClock.advance(by: .seconds(2 * 24 * 3600))
        _ = try await alice.maintainKeys()
        #expect(try !SessionCipher(stores: alice.storage.signal.stores, remoteAddress: laptop).hasSession())
    }

    @Test func theFirstReplyToAnIncomingSessionUsesItAndSpendsNoneOfTheSendersPreKeys() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let aliceAccount = alice.credentials.accountId
        try await alice.send(text: "alice writes first", to: bob.credentials.accountId)
        let before = try await alice.api.preKeyCount(as: alice.credentials)

        // Bob's first answer is his delivered receipt: it goes in the session Alice's prekey
        // message started, so no bundle of Alice is fetched and none of her prekeys is spent.
        #expect(try await bob.sync().bodies == ["alice writes first"])
        try await bob.sendPendingReceipts()
        try await bob.send(text: "bob answers", to: aliceAccount)
        #expect(try await alice.api.preKeyCount(as: alice.credentials) == before)

        let atAlice = try await alice.sync()
        #expect(atAlice.bodies == ["bob answers"])
        #expect(!atAlice.contains { if case .undecryptable = $0 { true } else { false } })
        let sent = try await alice.messages(in: MessengerClient.conversationId(aliceAccount, bob.credentials.accountId))
        #expect(sent.first?.state == .delivered, "the receipt decrypted in the same session")
    }

    @Test func aLateMessageFromARemovedDeviceDecryptsButDoesNotBringItBack() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bobPhone = try await server.register("bob-phone")
        let bob = bobPhone.credentials.accountId
        let laptop = try await server.link("bob-laptop", to: bobPhone)
        try await alice.send(text: "to both", to: bob)
        #expect(try await laptop.sync().bodies == ["to both"])
        try await laptop.send(text: "late from the laptop", to: alice.credentials.accountId)
        try await bobPhone.removeDevice(2)
        try await alice.send(text: "phone only", to: bob)
        let roster = { try alice.storage.read { try DeviceRoster.active(account: bob, db: $0) } }
        #expect(try roster() == [1], "the 409 marked the laptop removed")

        #expect(try await alice.sync().bodies.contains("late from the laptop"))
        #expect(try roster() == [1], "its late message does not make it a device to send to again")
    }
}
