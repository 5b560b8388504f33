import CourierCore
import Foundation
import Testing

@testable import Messenger

/// `MessengerClient.checkRecipient`: the key directory asked before anything is stored.
@Suite(.timeLimit(.minutes(2)))
struct ClientRecipientTests {
    @Test func anUnknownOrKeylessAccountIsNamedAndAReadyOneCostsNoExtraPreKey() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let bobAccount = bob.credentials.accountId
        let created = try await server.http.sendJSON(
            "POST", server.baseURL + "/v1/accounts",
            [
                "password": .string(Base64.encode((0..<32).map { UInt8($0) })), "registrationId": .int(7),
                "name": "dave",
            ])
        let dave = try #require(created.json?["accountId"]?.stringValue, "\(created.status)")

        #expect(try await alice.checkRecipient(UUID().uuidString.lowercased()) == .unknownAccount)
        #expect(try await alice.checkRecipient(dave) == .noDeviceWithKeys)
        #expect(try await alice.conversations().isEmpty)

        let before = try await bob.api.preKeyCount(as: bob.credentials)
        #expect(try await alice.checkRecipient(bobAccount) == .ready(devices: 1))
        try await alice.send(text: "after the check", to: bobAccount)
        #expect(try await alice.checkRecipient(bobAccount) == .ready(devices: 1))
        #expect(try await bob.api.preKeyCount(as: bob.credentials) == before - 1, "one session, one prekey")
        #expect(try await bob.sync().bodies == ["after the check"])
    }
}
