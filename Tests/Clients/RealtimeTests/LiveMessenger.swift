import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Realtime
import Synchronization

/// A real messenger server on 127.0.0.1 (ephemeral port) over SQLite in a temporary directory,
/// behind a `FaultProxy`; `restart()` stops it (every socket drops) and starts a new one on the
/// same data, and the proxy follows it.
final class LiveMessenger: Sendable {
    let directory: String
    let proxy: FaultProxy
    private let server: Mutex<HTTPServer>
    let http = HTTPClient(timeout: .seconds(30))

    init() throws {
        directory = NSTemporaryDirectory() + "realtime-messenger-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let first = try Self.startServer(directory: directory)
        server = Mutex(first)
        proxy = try FaultProxy(targetPort: first.port)
    }

    private static func startServer(directory: String) throws -> HTTPServer {
        var configuration = MessengerConfiguration()
        configuration.registrationRate = nil
        configuration.sendRate = nil
        configuration.attachmentDirectory = directory + "/attachments"
        let store = try SQLiteMessengerStore(path: directory + "/messenger.sqlite")
        let messenger = MessengerServer(configuration: configuration, store: store)
        var router = Router()
        messenger.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        let server = HTTPServer(configuration: http, router: router)
        try server.start()
        return server
    }

    /// The server's own URL (not through the proxy), for set-up requests.
    var baseURL: String { server.withLock { $0.baseURL } }

    /// The delivery socket's URL through the proxy.
    var socketURL: String { "ws://127.0.0.1:\(proxy.port)/v1/websocket" }

    /// Stops the server (its sockets drop) and starts another on the same data.
    func restart() async throws {
        let old = server.withLock { $0 }
        await old.shutdown(deadline: .zero)
        let next = try Self.startServer(directory: directory)
        server.withLock { $0 = next }
        proxy.retarget(port: next.port)
    }

    func stop() {
        proxy.stop()
        let current = server.withLock { $0 }
        let directory = directory
        inBackground {
            _ = current.stop(deadline: .zero)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Registers an account; its first device.
    func register() async throws -> LiveDevice {
        let password = Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
        let registrationId = Int64.random(in: 1...16_000)
        let response = try await http.send(
            "POST", baseURL + "/v1/accounts", headers: ["Content-Type": "application/json"],
            body: JSONWriter.encode([
                "password": .string(password), "registrationId": .int(registrationId), "name": "d",
            ]))
        guard let accountId = response.json?["accountId"]?.stringValue else {
            throw RealtimeError(.invalidArgument, "registration failed: \(response.status)")
        }
        return LiveDevice(accountId: accountId, password: password, registrationId: registrationId)
    }
}

/// A registered device's credentials.
struct LiveDevice: Sendable {
    let accountId: String
    let password: String
    let registrationId: Int64

    var authorization: String { "Basic " + Base64.encode(Array("\(accountId).1:\(password)".utf8)) }

    /// A send's payload to this device, for `RequestResponseProtocol`.
    func payload(_ text: String, conversation: String = "c1") -> [UInt8] {
        JSONWriter.encode([
            "conversationId": .string(conversation), "timestamp": 1_800_000_000_000,
            "messages": [
                [
                    "destinationDeviceId": 1, "destinationRegistrationId": .int(registrationId), "type": 1,
                    "content": .string(Base64.encode(Array(text.utf8))),
                ]
            ],
        ])
    }

    /// A connection for this device through `messenger`'s proxy.
    func connection(
        _ messenger: LiveMessenger, client: WebSocketClient, store: RealtimeStore, outbox: OutboxPolicy = .init(),
        seed: UInt64 = 1
    ) -> RealtimeConnection {
        let authorization = authorization
        var policy = ConnectionPolicy()
        policy.backoff = Backoff(base: .milliseconds(20), cap: .milliseconds(300))
        var configuration = WebSocketConfiguration()
        configuration.connectTimeoutMilliseconds = 2_000
        let transport = WebSocketTransport(client: client, url: messenger.socketURL, configuration: configuration) {
            [("Authorization", authorization)]
        }
        return RealtimeConnection(
            transport: transport, protocol: RequestResponseProtocol(), store: store, policy: policy,
            outboxPolicy: outbox, random: JitterSource(seed: seed))
    }
}

/// A server behind its proxy, two registered devices and a WebSocket client.
struct LiveScene {
    let messenger: LiveMessenger
    let alice: LiveDevice
    let bob: LiveDevice
    let client: WebSocketClient

    init() async throws {
        messenger = try LiveMessenger()
        alice = try await messenger.register()
        bob = try await messenger.register()
        client = try WebSocketClient()
    }

    func close() {
        messenger.stop()
        inBackground { [client] in client.shutdown() }
    }
}
