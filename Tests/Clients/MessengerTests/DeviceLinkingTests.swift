import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Messenger
import SignalProtocol
import Testing

/// Linking as Signal links: the new device shows a code, a device of the account provisions it
/// through the server's relay, and no key file exists at any point.
@Suite(.timeLimit(.minutes(3)))
struct DeviceLinkingTests {
    @Test func aDeviceProvisionedThroughTheSocketReceivesTheAccountsMessages() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let phone = try await server.register("phone")
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }

        let linking = try await MessengerClient.startLinking(
            server.configuration("tablet"), sockets: sockets, http: server.http)
        let code = try ProvisioningCode(parsing: linking.code.uri)
        #expect(code == linking.code, "the code survives its text form")
        #expect(linking.code.uri.hasPrefix("courier-link://?uuid="))
        try await phone.provision(code)
        let tablet = try await linking.finish()
        #expect(tablet.credentials.accountId == phone.credentials.accountId)
        #expect(tablet.credentials.deviceId == 2)
        #expect(await tablet.identityKeyPair().identityKey == phone.identityKeyPair().identityKey)

        let bob = try await server.register("bob")
        try await bob.send(text: "to both of your devices", to: phone.credentials.accountId)
        #expect(try await phone.sync().bodies == ["to both of your devices"])
        #expect(try await tablet.sync().bodies == ["to both of your devices"])
        try await tablet.send(text: "from the tablet", to: bob.credentials.accountId)
        #expect(try await bob.sync().bodies == ["from the tablet"])
        #expect(try await phone.sync().bodies == ["from the tablet"], "the phone gets the tablet's own copy")

        let files = FileManager.default.subpaths(atPath: server.root) ?? []
        #expect(!files.contains { $0.contains("handover") || $0.contains("identity") }, "\(files)")
        try server.expectNoPlaintext(["to both of your devices", "from the tablet"])
    }

    @Test func sendsStartedTogetherOnANewDeviceAllReachTheAccountsOtherDevice() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let phone = try await server.register("phone")
        let bob = try await server.register("bob")
        let tablet = try await server.link("tablet", to: phone)
        // The tablet knows none of its account's other devices yet: the first send asks the
        // server, and the sends beside it wait for that answer instead of going without them.
        let bobAccount = bob.credentials.accountId
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask { _ = try await tablet.send(text: "together \(index)", to: bobAccount) }
            }
            try await group.waitForAll()
        }
        #expect(Set(try await bob.sync().bodies).count == 4)
        #expect(
            Set(try await phone.sync().bodies) == Set((0..<4).map { "together \($0)" }),
            "the phone gets the tablet's own copy of each")
    }

    @Test func aSendSealsTheRecipientsAndTheOwnDevicesCopiesInOneCommit() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let phone = try await server.register("phone")
        let bob = try await server.register("bob")
        _ = try await server.link("tablet", to: phone)
        // The first send starts the sessions; the second finds them all.
        try await phone.send(text: "first", to: bob.credentials.accountId)
        let before = phone.storeCommits
        try await phone.send(text: "second", to: bob.credentials.accountId)
        // Stored as sending, both accounts' envelopes sealed together, marked sent.
        #expect(phone.storeCommits - before == 3)
        #expect(try await bob.sync().bodies == ["first", "second"])
    }

    @Test func aCodeTakesOneProvisionAndAForeignOneIsRefused() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let phone = try await server.register("phone")
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let linking = try await MessengerClient.startLinking(
            server.configuration("tablet"), sockets: sockets, http: server.http)
        try await phone.provision(linking.code)
        _ = try await linking.finish()
        let error = await #expect(throws: MessengerClientError.self) { try await phone.provision(linking.code) }
        #expect(error?.status == 404)

        let unknown = ProvisioningCode(
            address: Hex.encode([UInt8](repeating: 7, count: 16)), publicKey: linking.code.publicKey)
        let refused = await #expect(throws: MessengerClientError.self) { try await phone.provision(unknown) }
        #expect(refused?.message.contains("no device is waiting for this code") == true)
    }

    @Test func aProvisionSealedToAnotherKeyDoesNotLinkTheDevice() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let phone = try await server.register("phone")
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let linking = try await MessengerClient.startLinking(
            server.configuration("tablet"), sockets: sockets, http: server.http)
        let intruder = ProvisioningCode(address: linking.code.address, publicKey: try KeyPair.generate().publicKey)
        try await phone.provision(intruder)
        let error = await #expect(throws: MessengerClientError.self) { try await linking.finish() }
        #expect(error?.code == .protocolFailure)
    }

    @Test(arguments: [
        ("https://example.com", "starts with courier-link://"),
        ("courier-link://?pub_key=BQ", "no address"),
        ("courier-link://?uuid=abc&pub_key=AAAA", "no valid public key"),
        ("courier-link://?uuid=a/b&pub_key=AAAA", "no address"),
    ])
    func malformedCodesAreRefusedWithTheReason(text: String, reason: String) {
        let error = #expect(throws: MessengerClientError.self) { try ProvisioningCode(parsing: text) }
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
    }
}
