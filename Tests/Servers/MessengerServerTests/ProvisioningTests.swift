import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

/// The provisioning relay: `GET /v1/websocket/provisioning/` for the device being linked,
/// `PUT /v1/provisioning/{address}` for a device of the account.
@Suite(.timeLimit(.minutes(2)))
struct ProvisioningTests {
    /// Opens a provisioning socket (no credentials) and reads its address frame.
    static func open(_ harness: MessengerHarness, client: WebSocketClient) async throws -> (WebSocket, String) {
        let socket = try await client.connect(to: "ws" + harness.baseURL.dropFirst(4) + "/v1/websocket/provisioning/")
        var reader = DeliveryReader(socket)
        let frame = try #require(await reader.next(), "the address frame")
        #expect(frame["path"] == "/v1/address")
        let address = try #require(frame["body"]?["address"]?.stringValue)
        return (socket, address)
    }

    /// `PUT /v1/provisioning/{address}` with `body` as the provision's bytes.
    static func provision(
        _ body: [UInt8], to address: String, as device: TestDevice?, on harness: MessengerHarness
    ) async throws -> HTTPClientResponse {
        try await harness.request(
            "PUT", "/v1/provisioning/" + address, as: device, json: ["body": .string(Base64.encode(body))])
    }

    static func randomBytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    @Test func aProvisionReachesTheSocketAtItsAddressVerbatimOnceAndTheSocketCloses() async throws {
        let harness = try await MessengerHarness()
        defer { harness.stop() }
        let phone = try await harness.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let (socket, address) = try await Self.open(harness, client: client)
        #expect(address.count == 32 && address.allSatisfy(\.isHexDigit), "128 random bits: \(address)")
        let (_, other) = try await Self.open(harness, client: client)
        #expect(other != address)

        // Bytes the server cannot read, as a sealed box is to it.
        let sealed = Self.randomBytes(300)
        #expect(try await Self.provision(sealed, to: address, as: phone, on: harness).status == 204)
        var reader = DeliveryReader(socket)
        let frame = try #require(await reader.next())
        #expect(frame["path"] == "/v1/message")
        #expect(frame["body"]?["body"]?.stringValue.flatMap(Base64.decode) == sealed)
        #expect(await reader.next() == nil, "the socket closes once provisioned")
        #expect(await socket.closed().code == .normalClosure)
        let again = try await Self.provision(sealed, to: address, as: phone, on: harness)
        #expect(again.status == 404, "an address takes one provision")
    }

    @Test(arguments: [
        "0123456789abcdef0123456789abcdef", "0123456789ABCDEF0123456789ABCDEF", "short", "x-y_z",
    ])
    func aProvisionToAnAddressNoSocketHoldsIs404(address: String) async throws {
        let harness = try await MessengerHarness()
        defer { harness.stop() }
        let phone = try await harness.register()
        let response = try await Self.provision([1, 2, 3], to: address, as: phone, on: harness)
        #expect(response.status == 404)
        #expect(response.json?["error"]?["code"] == "not_found")
    }

    @Test func onlyADeviceOfAnAccountMayProvision() async throws {
        let harness = try await MessengerHarness()
        defer { harness.stop() }
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let (_, address) = try await Self.open(harness, client: client)
        #expect(try await Self.provision([1, 2, 3], to: address, as: nil, on: harness).status == 401)
    }

    @Test func anOversizedProvisionIsRefusedAndTheSocketKeepsWaiting() async throws {
        let harness = try await MessengerHarness { $0.maximumProvisionBytes = 1_024 }
        defer { harness.stop() }
        let phone = try await harness.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let (socket, address) = try await Self.open(harness, client: client)
        let big = try await Self.provision(Self.randomBytes(1_024), to: address, as: phone, on: harness)
        #expect(big.status == 413)
        #expect(big.json?["error"]?["code"] == "payload_too_large")
        let fits = Self.randomBytes(600)
        #expect(try await Self.provision(fits, to: address, as: phone, on: harness).status == 204)
        var reader = DeliveryReader(socket)
        #expect(await reader.next()?["body"]?["body"]?.stringValue.flatMap(Base64.decode) == fits)
    }

    @Test func theSocketCapRefusesOneMoreSocketWithAClearCloseAndFreesSlotsOnClose() async throws {
        let harness = try await MessengerHarness { $0.maximumProvisioningSockets = 3 }
        defer { harness.stop() }
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        var open: [WebSocket] = []
        for _ in 0..<3 { open.append(try await Self.open(harness, client: client).0) }
        #expect(harness.messenger.provisioningSockets == 3)
        #expect(harness.messenger.metricsText().contains("courier_messenger_provisioning_sockets 3\n"))

        let refused = try await client.connect(to: "ws" + harness.baseURL.dropFirst(4) + "/v1/websocket/provisioning/")
        var reader = DeliveryReader(refused)
        #expect(await reader.next() == nil, "no address for the fourth")
        let close = await refused.closed()
        #expect(close.code.refusedStatus == .serviceUnavailable, "\(close)")
        #expect(close.reason.contains("too many devices are waiting to be linked"), "\(close)")
        #expect(harness.messenger.provisioningSockets == 3)

        open[0].outbound.close()
        #expect(await poll { harness.messenger.provisioningSockets == 2 }, "a closed socket gives its slot back")
        _ = try await Self.open(harness, client: client)
    }

    @Test func aSocketClosesWhenItsLifetimeRunsOutOnTheServersClock() async throws {
        let harness = try await MessengerHarness { $0.provisioningSocketLifetime = .seconds(60) }
        defer { harness.stop() }
        let phone = try await harness.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let (socket, address) = try await Self.open(harness, client: client)
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .seconds(61))
        let close = await socket.closed()
        #expect(close.code.refusedStatus == .requestTimeout, "\(close)")
        #expect(await poll { harness.messenger.provisioningSockets == 0 })
        #expect(try await Self.provision([1], to: address, as: phone, on: harness).status == 404)
    }

    @Test func aProvisionSentToAnotherInstanceCrossesTheBus() async throws {
        let bus = LocalMessageBus()
        let first = try await MessengerHarness(bus: bus)
        defer { first.stop() }
        let second = try await MessengerHarness(sharing: first, bus: bus)
        defer { second.stop() }
        let phone = try await second.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let (socket, address) = try await Self.open(first, client: client)
        let sealed = Self.randomBytes(200)
        #expect(try await Self.provision(sealed, to: address, as: phone, on: second).status == 204)
        var reader = DeliveryReader(socket)
        #expect(await reader.next()?["body"]?["body"]?.stringValue.flatMap(Base64.decode) == sealed)
        #expect(try await Self.provision(sealed, to: Self.randomHex(), as: phone, on: second).status == 404)
    }

    static func randomHex() -> String { Hex.encode(randomBytes(16)) }
}
