import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// `GET /v1/messenger/devices`, the operators' overview the console shows: devices, online or
/// not, mailbox depth and oldest envelope age, push totals, and no message content.
@Suite(.timeLimit(.minutes(1)))
struct OverviewTests {
    static let adminToken = "messenger-admin-token"

    @Test(arguments: StoreBackend.allCases) func theOverviewShowsMailboxDepthAndAgeButNoContent(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend) { $0.adminToken = Self.adminToken }
        defer {
            harness.stop()
            harness.removeFiles()
        }
        let alice = try await harness.register(name: "alice-phone")
        let bob = try await harness.register(name: "bob-phone")
        let sent = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "secret words")
        #expect(sent.status == 200)
        harness.clock.advance(by: .seconds(90))

        let refused = try await harness.request("GET", "/v1/messenger/devices")
        #expect(refused.status == 403)
        let answer = try await harness.request(
            "GET", "/v1/messenger/devices", headers: ["Authorization": "Bearer \(Self.adminToken)"])
        #expect(answer.status == 200)
        let devices = try #require(answer.json?["devices"]?.arrayValue)
        #expect(devices.count == 2)
        let bobs = try #require(devices.first { $0["accountId"]?.stringValue == bob.accountId })
        #expect(bobs["mailboxDepth"]?.intValue == 1)
        #expect(bobs["oldestEnvelopeAgeSeconds"]?.intValue == 90)
        #expect(bobs["online"]?.boolValue == false)
        #expect(bobs["name"]?.stringValue == "bob-phone")
        let alices = try #require(devices.first { $0["accountId"]?.stringValue == alice.accountId })
        #expect(alices["mailboxDepth"]?.intValue == 0)
        #expect(alices["oldestEnvelopeAgeSeconds"]?.isNull == true)
        #expect(answer.json?["pushes"]?["sent"]?.intValue == 0)
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(!text.contains(Base64.encode(Array("secret words for 1".utf8))))
    }

    @Test(arguments: StoreBackend.allCases) func withoutAnAdminTokenTheOverviewIsDisabled(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer {
            harness.stop()
            harness.removeFiles()
        }
        let answer = try await harness.request(
            "GET", "/v1/messenger/devices", headers: ["Authorization": "Bearer anything"])
        #expect(answer.status == 403)
    }
}
