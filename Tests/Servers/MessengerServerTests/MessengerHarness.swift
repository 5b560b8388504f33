import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import SignalProtocol
import Testing

/// A real messenger server on 127.0.0.1 (ephemeral port) over a SQLite store in a temporary
/// directory or (`backend: .postgres`) a PostgreSQL database of its own, with a manual clock, an
/// HTTP client and a WebSocket client. A second harness can share the first one's store, clock
/// and bus (`sharing:`): two instances of the server, as behind a balancer.
final class MessengerHarness: Sendable {
    let clock: ManualClock
    let directory: String
    let store: any MessengerStore
    let messenger: MessengerServer
    let server: HTTPServer
    let client = HTTPClient(timeout: .seconds(30))

    init(
        backend: StoreBackend = .sqlite, directory: String? = nil, postgresURL: String? = nil,
        sharing other: MessengerHarness? = nil, bus: any MessageBus = LocalMessageBus(),
        pushSenders: [PushEndpoint.Kind: any PushSender] = [:],
        configure: (inout MessengerConfiguration) -> Void = { _ in }
    ) async throws {
        clock = other?.clock ?? ManualClock()
        let directory = directory ?? NSTemporaryDirectory() + "messenger-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        var attachments: (any AttachmentStore)?
        if let other {
            store = other.store
        } else {
            switch backend {
            case .sqlite: store = try SQLiteMessengerStore(path: directory + "/messenger.sqlite")
            case .postgres:
                let made = postgresURL == nil ? try await TestPostgres.shared.makeDatabase() : nil
                let url = postgresURL ?? made ?? ""
                let postgres = try await offPool { try PostgresMessengerStore(url: url, connections: 4) }
                store = postgres
                attachments = postgres.attachments
            }
        }
        var configuration = MessengerConfiguration()
        configuration.attachmentDirectory = directory + "/attachments"
        // Pushes for envelopes a socket left unread go at once unless a test asks for the grace.
        configuration.unreadPushGraceMilliseconds = 0
        configure(&configuration)
        messenger = MessengerServer(
            configuration: configuration, store: store, clock: clock, pushSenders: pushSenders, bus: bus,
            attachments: attachments)
        var router = Router()
        messenger.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        server = HTTPServer(configuration: http, router: router)
        try server.start()
    }

    /// A harness whose sockets take at most four unacknowledged envelopes, with no send rate.
    static func withWindowOfFour(backend: StoreBackend) async throws -> MessengerHarness {
        try await MessengerHarness(backend: backend) {
            $0.deliveryWindow = 4
            $0.sendRate = nil
        }
    }

    var baseURL: String { server.baseURL }

    func stop() { inBackground { [server] in server.stop(deadline: .zero) } }

    /// Removes the temporary directory (after `stop`).
    func removeFiles() { try? FileManager.default.removeItem(atPath: directory) }

    /// The API of this instance.
    var api: MessengerAPI { MessengerAPI(baseURL: baseURL, client: client) }

    /// Sends a request with `device`'s credentials (or none).
    func request(
        _ method: String, _ path: String, as device: TestDevice? = nil, json: JSONValue? = nil,
        headers: [String: String] = [:], body: [UInt8]? = nil
    ) async throws -> HTTPClientResponse {
        try await api.request(method, path, as: device, json: json, headers: headers, body: body)
    }

    /// Creates an account; its first device.
    func register(name: String = "phone") async throws -> TestDevice { try await api.register(name: name) }

    /// Links a new device to `primary`'s account.
    func link(to primary: TestDevice, name: String = "laptop") async throws -> TestDevice {
        try await api.link(to: primary, name: name)
    }

    /// Uploads `device`'s identity key, a signed prekey and `preKeys` one-time prekeys.
    func uploadKeys(_ device: TestDevice, preKeys: Int = 10, firstId: Int = 1) async throws {
        try await api.uploadKeys(device, preKeys: preKeys, firstId: firstId)
    }

    /// `PUT /v1/messages/{account}` with one envelope per `(device, registrationId)`.
    func send(
        from sender: TestDevice, to accountId: String, devices: [(Int, Int)], content: String = "sealed",
        clientMessageId: String = UUID().uuidString, conversationId: String = "conversation-1"
    ) async throws -> HTTPClientResponse {
        try await api.send(
            from: sender, to: accountId, devices: devices, content: content, clientMessageId: clientMessageId,
            conversationId: conversationId)
    }

    /// Opens the socket of `device`, whose mailbox is empty, and reads its "queue empty" marker.
    func connectEmpty(_ device: TestDevice, client: WebSocketClient) async throws -> DeliveryReader {
        var reader = DeliveryReader(try await connect(device, client: client))
        let first = await reader.next()
        try #require(first?["path"] == "/api/v1/queue/empty", "the first frame: \(String(describing: first))")
        return reader
    }

    /// Opens `device`'s delivery socket.
    func connect(_ device: TestDevice, client: WebSocketClient) async throws -> WebSocket {
        try await api.connect(device, client: client)
    }
}

/// A device as a client sees it: its credentials and its identity key.
final class TestDevice: @unchecked Sendable {
    let name: String
    /// A secret as the messenger client makes one: base64 of 32 random bytes.
    let password = Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
    let registrationId: Int
    var identity: IdentityKeyPair
    var accountId = ""
    var deviceId = 0
    /// The ids of the one-time prekeys the last `keyUpload` made.
    var preKeyIds: [Int64] = []

    init(name: String) throws {
        self.name = name
        registrationId = Int(try KeyHelper.generateRegistrationId())
        identity = try IdentityKeyPair.generate()
    }

    var authorization: String { "Basic " + Base64.encode(Array("\(accountId).\(deviceId):\(password)".utf8)) }

    var registration: JSONValue {
        ["password": .string(password), "registrationId": .int(Int64(registrationId)), "name": .string(name)]
    }

    func keyUpload(preKeys: Int, firstId: Int = 1, badSignature: Bool = false) throws -> JSONValue {
        let signed = try SignedPreKeyRecord.generate(identity: identity, id: 7, timestamp: 0)
        var signature = signed.signature
        if badSignature { signature[0] ^= 0x01 }
        let oneTime = try KeyHelper.generatePreKeys(start: UInt32(firstId), count: preKeys)
        preKeyIds = oneTime.map { Int64($0.id) }
        return [
            "identityKey": .string(Base64.encode(identity.identityKey.serialized)),
            "signedPreKey": [
                "keyId": 7, "publicKey": .string(Base64.encode(signed.keyPair.publicKey.serialized)),
                "signature": .string(Base64.encode(signature)),
            ],
            "preKeys": .array(
                oneTime.map {
                    ["keyId": .int(Int64($0.id)), "publicKey": .string(Base64.encode($0.keyPair.publicKey.serialized))]
                }),
        ]
    }
}

/// Reads delivery frames from a socket.
struct DeliveryReader {
    let socket: WebSocket
    var iterator: WebSocketInbound.AsyncIterator

    init(_ socket: WebSocket) {
        self.socket = socket
        iterator = socket.inbound.makeAsyncIterator()
    }

    /// The next frame as JSON, or `nil` when the socket closed.
    mutating func next() async -> JSONValue? {
        guard let message = await iterator.next() else { return nil }
        guard case .text(let text) = message else { return .null }
        return try? JSONParser.parse(text)
    }
}

extension JSONValue {
    /// The decoded `content` of an envelope frame.
    var envelopeContent: String? {
        self["body"]?["content"]?.stringValue.flatMap(Base64.decode).map { String(decoding: $0, as: UTF8.self) }
    }
}
