import CourierCore
import Foundation
import Testing

@testable import Messenger

/// The client's messages go through the conversation store: what the app lists and pages.
@Suite(.timeLimit(.minutes(3)))
struct ClientConversationTests {
    @Test func ownCopiesAreSentMessagesAndTheAppPagesTheConversation() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alicePhone = try await server.register("alice")
        let aliceTablet = try await server.link("alice-tablet", to: alicePhone)
        let bob = try await server.register("bob")
        let bobAccount = bob.credentials.accountId
        let conversation = MessengerClient.conversationId(alicePhone.credentials.accountId, bobAccount)
        let texts = (1...12).map { "page me \($0)" }
        for text in texts { try await alicePhone.send(text: text, to: bobAccount) }

        #expect(try await aliceTablet.sync().bodies == texts)
        let copies = try await aliceTablet.messages(in: conversation)
        #expect(copies.allSatisfy { $0.state == .sent && $0.sender.device == 1 }, "the phone's copies, already sent")
        #expect(copies.map(\.serverSeq) == (1...12).map { Int64($0) })
        #expect(try await aliceTablet.conversations().map(\.unreadCount) == [0])

        _ = try await bob.sync()
        let summary = try #require(try await bob.conversations().first)
        #expect(summary.lastMessage.body == "page me 12")
        #expect(summary.unreadCount == 12)
        let paginator = bob.paginator(for: conversation, pageSize: 5)
        try await paginator.loadLatest()
        #expect(await paginator.items.map(\.body) == Array(texts.suffix(5)))
        try await paginator.rowAppeared(at: 0)
        #expect(await paginator.items.map(\.body) == Array(texts.suffix(10)))

        #expect(try await bob.markRead(conversation, upToSeq: 12) == 12)
        #expect(try await bob.conversations().map(\.unreadCount) == [0])
        _ = try await alicePhone.sync()
        #expect(try await alicePhone.messages(in: conversation).allSatisfy { $0.state == .read })
        try server.expectNoPlaintext(texts)
    }

    @Test func aHoleInTheSequenceStartsACatchUp() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        for text in ["first", "second", "third"] { try await alice.send(text: text, to: bob.credentials.accountId) }

        // The first and third arrive (as over a socket); the second is still on the server.
        let pending = try await bob.api.pending(after: 0, limit: 10, as: bob.credentials).envelopes
        try #require(pending.count == 3)
        for (_, json) in [pending[0], pending[2]] {
            #expect(try bob.processor.process(IncomingEnvelope(json: json)) != .duplicate)
        }
        #expect(try await bob.gaps(in: conversation) == [2...2])

        let caught = try await bob.catchUpIfGaps(in: conversation)
        #expect(caught.bodies == ["second"])
        #expect(try await bob.gaps(in: conversation).isEmpty)
        #expect(try await bob.messages(in: conversation).map(\.body) == ["first", "second", "third"])
        #expect(try await bob.catchUpIfGaps(in: conversation).isEmpty, "no gap, no fetch")

        // A seq this device never gets: a control message sent only to Alice's other device.
        _ = try await server.link("alice-tablet", to: alice)
        try await alice.refreshOwnDevices()
        try await alice.sendControl(
            .typing(started: true, conversation: conversation), to: alice.credentials.accountId,
            conversation: conversation)
        try await alice.send(text: "fourth", to: bob.credentials.accountId)
        let fourth = try #require(try await bob.api.pending(after: 0, limit: 10, as: bob.credentials).envelopes.first)
        _ = try bob.processor.process(IncomingEnvelope(json: fourth.envelope))
        #expect(try await bob.gaps(in: conversation) == [4...4])
        #expect(try await bob.catchUpIfGaps(in: conversation).map(\.summary) == ["duplicate"], "one look")
        #expect(try await bob.catchUpIfGaps(in: conversation).isEmpty, "the same hole is not fetched again")
    }

    @Test func readingOnOneDeviceMarksTheOtherDevicesCopyReadWithoutAReceiptOfItsOwn() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bobPhone = try await server.register("bob")
        let bobLaptop = try await server.link("bob-laptop", to: bobPhone)
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bobPhone.credentials.accountId)
        try await alice.send(text: "one", to: bobPhone.credentials.accountId)
        try await alice.send(text: "two", to: bobPhone.credentials.accountId)
        _ = try await bobPhone.sync()
        _ = try await bobLaptop.sync()
        _ = try await bobLaptop.sendPendingReceipts()
        try await bobPhone.refreshOwnDevices()

        #expect(try await bobPhone.markRead(conversation, upToSeq: 2) == 2)
        _ = try await bobLaptop.sync()
        #expect(try await bobLaptop.messages(in: conversation).map(\.state) == [.read, .read])
        #expect(try await bobLaptop.conversations().map(\.unreadCount) == [0])
        #expect(try await bobLaptop.sendPendingReceipts().isEmpty, "the phone already told Alice")
        _ = try await alice.sync()
        #expect(try await alice.messages(in: conversation).map(\.state) == [.read, .read])
    }
}
