import CourierCore
import CourierHTTP
import Foundation
import Testing

/// The messenger's HTTP API as the tests speak it, against any address: one instance, another
/// one, or haproxy in front of both.
struct MessengerAPI: Sendable {
    /// `http://host:port`.
    let baseURL: String
    let client: HTTPClient

    /// Sends a request with `device`'s credentials (or none).
    func request(
        _ method: String, _ path: String, as device: TestDevice? = nil, json: JSONValue? = nil,
        headers: [String: String] = [:], body: [UInt8]? = nil
    ) async throws -> HTTPClientResponse {
        var all = headers
        if let device { all["Authorization"] = device.authorization }
        if let json {
            all["Content-Type"] = "application/json"
            return try await client.send(method, baseURL + path, headers: all, body: JSONWriter.encode(json))
        }
        return try await client.send(method, baseURL + path, headers: all, body: body)
    }

    /// Creates an account; its first device.
    func register(name: String = "phone") async throws -> TestDevice {
        let device = try TestDevice(name: name)
        let response = try await request("POST", "/v1/accounts", json: device.registration)
        try #require(
            response.status == 200, "registration: \(response.status) \(String(decoding: response.body, as: UTF8.self))"
        )
        device.accountId = try #require(response.json?["accountId"]?.stringValue)
        device.deviceId = 1
        return device
    }

    /// Links a new device to `primary`'s account.
    func link(to primary: TestDevice, name: String = "laptop") async throws -> TestDevice {
        let token = try await request("POST", "/v1/devices/linking-token", as: primary)
        let device = try TestDevice(name: name)
        var body = device.registration
        body = .object((body.objectValue ?? [:]).merging(["token": token.json?["token"] ?? .null]) { $1 })
        let response = try await request("PUT", "/v1/devices/link", json: body)
        try #require(
            response.status == 200, "link: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        device.accountId = try #require(response.json?["accountId"]?.stringValue)
        device.deviceId = Int(try #require(response.json?["deviceId"]?.intValue))
        device.identity = primary.identity
        return device
    }

    /// Uploads `device`'s identity key, a signed prekey and `preKeys` one-time prekeys.
    func uploadKeys(_ device: TestDevice, preKeys: Int = 10, firstId: Int = 1) async throws {
        let response = try await request(
            "PUT", "/v2/keys", as: device, json: try device.keyUpload(preKeys: preKeys, firstId: firstId))
        try #require(
            response.status == 204, "keys: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
    }

    /// `PUT /v1/messages/{account}` with one envelope per `(device, registrationId)`.
    func send(
        from sender: TestDevice, to accountId: String, devices: [(Int, Int)], content: String = "sealed",
        clientMessageId: String = UUID().uuidString, conversationId: String = "conversation-1"
    ) async throws -> HTTPClientResponse {
        let messages: [JSONValue] = devices.map { device, registrationId in
            [
                "destinationDeviceId": .int(Int64(device)), "destinationRegistrationId": .int(Int64(registrationId)),
                "type": 1, "content": .string(Base64.encode(Array("\(content) for \(device)".utf8))),
            ]
        }
        return try await request(
            "PUT", "/v1/messages/\(accountId)", as: sender,
            json: [
                "messages": .array(messages), "conversationId": .string(conversationId),
                "clientMessageId": .string(clientMessageId), "timestamp": 1_800_000_000_000,
            ])
    }

    /// Opens `device`'s delivery socket.
    func connect(_ device: TestDevice, client: WebSocketClient) async throws -> WebSocket {
        try await client.connect(
            to: "ws" + baseURL.dropFirst(4) + "/v1/websocket", headers: [("Authorization", device.authorization)])
    }
}
