import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

@testable import Messenger

@Suite(.timeLimit(.minutes(5)))
struct GroupTests {
    @Test func aSmallGroupByPairwiseFanOut() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let carol = try await server.register("carol")
        try await alice.createGroup(
            "picnic", members: [bob.credentials.accountId, carol.credentials.accountId], mode: .pairwise)
        try await alice.send(text: "bring plates", toGroup: "picnic")
        for member in [bob, carol] {
            let events = try await member.sync()
            #expect(events.bodies == ["bring plates"])
            #expect(try await member.groupMembers("picnic").count == 3, "the membership arrived as a message")
        }
        try await bob.send(text: "and cups", toGroup: "picnic")
        #expect(try await carol.sync().bodies == ["and cups"])
        #expect(try await alice.sync().bodies == ["and cups"])
        try server.expectNoPlaintext(["bring plates", "and cups"])
    }

    @Test func aGroupOfTwentyBySenderKeysRekeysWhenAMemberLeaves() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let aliceTablet = try await server.link("alice-tablet", to: alice)
        var members: [MessengerClient] = []
        for index in 1..<20 { members.append(try await server.register("member-\(index)")) }
        let accounts = members.map(\.credentials.accountId)
        try await alice.createGroup("big", members: accounts, mode: .senderKeys)
        try await alice.send(text: "sender-key hello", toGroup: "big")
        for member in members + [aliceTablet] {
            let events = try await member.sync()
            #expect(events.bodies == ["sender-key hello"], "\(member.credentials)")
        }

        let leaver = members.removeLast()
        try await alice.removeMember(leaver.credentials.accountId, from: "big")
        let update = try await leaver.sync()
        #expect(
            update == [
                .groupUpdated(group: "big", members: (accounts.dropLast() + [alice.credentials.accountId]).sorted())
            ])

        try await alice.send(text: "after the leaver", toGroup: "big")
        // The leaver is not sent the message; and holding Alice's old sender key does not open a
        // copy of it (the envelope a remaining member got, before they process it).
        let stayer = members[0]
        let copy = try #require(
            try await stayer.api.pending(after: 0, limit: 100, as: stayer.credentials).envelopes.last?.envelope)
        #expect(copy["type"]?.intValue == 4)
        guard case .undecryptable = try leaver.processor.process(try IncomingEnvelope(json: copy)) else {
            Issue.record("the removed member decrypted a message sent after the rekey")
            return
        }
        for member in members {
            #expect(try await member.sync().bodies == ["after the leaver"], "\(member.credentials)")
        }
        #expect(try await leaver.sync().bodies.isEmpty)
        // A remaining member who rotated on the update still reaches the others.
        try await members[1].send(text: "from a member", toGroup: "big")
        #expect(try await alice.sync().bodies == ["from a member"])
        #expect(try await members[2].sync().bodies == ["from a member"])
        try server.expectNoPlaintext(["sender-key hello", "after the leaver", "from a member"])
    }
}
