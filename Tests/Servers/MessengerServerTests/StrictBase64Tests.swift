import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

/// Message content is strict base64: padding optional, no stray `=`, no other characters, no
/// bits past the last byte, nothing empty.
@Suite(.timeLimit(.minutes(1))) struct StrictBase64Tests {
    static let refused = [
        "AA=A", "", "A", "AAAAA", "AAAA=", "AA=", "A===", "=AAA", "AB==", "AAB", "AA==AA==", " AAAA", "AA\nAA", "AA-_",
    ]
    static let accepted: [(String, [UInt8])] = [
        ("AAAA", [0, 0, 0]), ("AAA", [0, 0]), ("AAA=", [0, 0]), ("AA", [0]), ("AA==", [0]), ("/+8=", [0xFF, 0xEF]),
    ]

    @Test(arguments: refused)
    func malformedContentIsRefusedWith400(_ content: String) async throws {
        let harness = try await MessengerHarness()
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register(name: "bob")
        let answer = try await harness.request(
            "PUT", "/v1/messages/\(bob.accountId)", as: alice,
            json: [
                "messages": [
                    [
                        "destinationDeviceId": 1, "destinationRegistrationId": .int(Int64(bob.registrationId)),
                        "type": 1, "content": .string(content),
                    ]
                ],
                "conversationId": "c", "clientMessageId": "m", "timestamp": 1,
            ])
        #expect(answer.status == 400)
        #expect(try harness.store.mailbox(accountId: bob.accountId, deviceId: 1, afterId: 0, limit: 10).isEmpty)
    }

    @Test(arguments: accepted)
    func wellFormedContentIsStoredAsSent(_ content: String, _ bytes: [UInt8]) async throws {
        let harness = try await MessengerHarness()
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register(name: "bob")
        let answer = try await harness.request(
            "PUT", "/v1/messages/\(bob.accountId)", as: alice,
            json: [
                "messages": [
                    [
                        "destinationDeviceId": 1, "destinationRegistrationId": .int(Int64(bob.registrationId)),
                        "type": 1, "content": .string(content),
                    ]
                ],
                "conversationId": "c", "clientMessageId": "m", "timestamp": 1,
            ])
        #expect(answer.status == 200)
        let stored = try harness.store.mailbox(accountId: bob.accountId, deviceId: 1, afterId: 0, limit: 10)
        let envelope = try JSONParser.parse(try #require(stored.first).envelope)
        #expect(envelope["content"]?.stringValue.flatMap(Base64.decode) == bytes)
    }

    /// A name PostgreSQL could not store (U+0000) is dropped like any invalid name, on either
    /// engine, never cut short or turned into a storage error.
    @Test(arguments: StoreBackend.allCases) func aDeviceNameHoldingUPlus0000IsNotStored(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let device = try TestDevice(name: "phone")
        var body = device.registration.objectValue ?? [:]
        body["name"] = "pho\u{0}ne"
        let answer = try await harness.request("POST", "/v1/accounts", json: .object(body))
        #expect(answer.status == 200)
        let accountId = try #require(answer.json?["accountId"]?.stringValue)
        #expect(try harness.store.device(accountId: accountId, deviceId: 1)?.name == "")
    }
}
