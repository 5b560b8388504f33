import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer

/// A messenger server on 127.0.0.1 over a SQLite store in a temporary directory (or, given a
/// `database`, over `PostgresMessengerStore` there, its tables dropped first), for one run.
final class MessengerBenchServer: Sendable {
    /// A device's credentials.
    struct Device: Sendable {
        let accountId: String
        let deviceId: Int
        var authorization: String {
            "Basic " + Base64.encode(Array("\(accountId).\(deviceId):\(MessengerServerBenchmark.password)".utf8))
        }
    }

    let directory: String
    let store: any MessengerStore
    let server: HTTPServer
    let client = HTTPClient(timeout: .seconds(30))

    init(configuration: MessengerConfiguration = MessengerBenchServer.configuration, database: String? = nil) throws {
        directory = NSTemporaryDirectory() + "messenger-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let database {
            try PostgresBenchDatabase.reset(
                database, scope: "messenger",
                tables: [
                    "attachment_parts", "attachments", "mailbox", "sends", "conversations", "one_time_prekeys",
                    "signed_prekeys", "linking_tokens", "devices", "accounts",
                ])
            store = try PostgresMessengerStore(url: database, connections: 16)
        } else {
            store = try SQLiteMessengerStore(path: directory + "/messenger.sqlite")
        }
        server = try Self.startServer(store: store, configuration: configuration)
    }

    /// A started server on an ephemeral port over `store`, with no access log and 32 handler threads.
    static func startServer(store: any MessengerStore, configuration: MessengerConfiguration) throws -> HTTPServer {
        let messenger = MessengerServer(configuration: configuration, store: store)
        var router = Router()
        messenger.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        http.accessLog = nil
        http.handlerThreads = 32
        let server = HTTPServer(configuration: http, router: router)
        try server.start()
        return server
    }

    /// No rate limits: the benchmark creates many devices from one address.
    static var configuration: MessengerConfiguration {
        var configuration = MessengerConfiguration()
        configuration.sendRate = nil
        configuration.registrationRate = nil
        configuration.linkingRate = nil
        configuration.oneTimePreKeyBudgetPerTarget = nil
        configuration.preKeyFetchRate = nil
        configuration.failedAuthenticationRate = nil
        return configuration
    }

    /// Runs `body` with a fresh server, then stops it and removes its files.
    static func with<T>(database: String? = nil, _ body: (MessengerBenchServer) throws -> T) throws -> T {
        let server = try MessengerBenchServer(database: database)
        defer {
            _ = server.server.stop(deadline: .zero)
            try? FileManager.default.removeItem(atPath: server.directory)
        }
        return try body(server)
    }

    var baseURL: String { server.baseURL }

    /// The server's API.
    var api: MessengerBenchAPI { MessengerBenchAPI(baseURL: baseURL, client: client) }

    func register() async throws -> Device { try await api.register() }

    func link(to primary: Device) async throws -> Device { try await api.link(to: primary) }

    /// Opens a device's socket.
    func connect(_ device: Device, client: WebSocketClient) async throws -> WebSocket {
        try await api.connect(device, client: client)
    }
}

/// The messenger's API as the benchmarks call it, at any address: an in-process server, a
/// `courier-server` process, or haproxy in front of several.
struct MessengerBenchAPI: Sendable {
    typealias Device = MessengerBenchServer.Device
    /// `http://host:port`.
    let baseURL: String
    let client: HTTPClient

    private var registration: JSONValue {
        ["password": .string(MessengerServerBenchmark.password), "registrationId": 1, "name": "bench"]
    }

    func register() async throws -> Device {
        let answer = try await client.sendJSON("POST", baseURL + "/v1/accounts", registration)
        guard let id = answer.json?["accountId"]?.stringValue else { throw BenchError("registration failed") }
        return Device(accountId: id, deviceId: 1)
    }

    func link(to primary: Device) async throws -> Device {
        let token = try await client.send(
            "POST", baseURL + "/v1/devices/linking-token", headers: ["Authorization": primary.authorization])
        var body = registration.objectValue ?? [:]
        body["token"] = token.json?["token"] ?? .null
        let answer = try await client.sendJSON("PUT", baseURL + "/v1/devices/link", .object(body))
        guard let id = answer.json?["deviceId"]?.intValue else { throw BenchError("linking failed") }
        return Device(accountId: primary.accountId, deviceId: Int(id))
    }

    /// Opens a device's socket.
    func connect(_ device: Device, client: WebSocketClient) async throws -> WebSocket {
        try await client.connect(
            to: "ws" + baseURL.dropFirst(4) + "/v1/websocket", headers: [("Authorization", device.authorization)])
    }
}

/// The messenger server in a child process (`courier-bench messenger-idle-server N [mode]`) with N
/// accounts `bench-0` … `bench-(N-1)` made through the store, so that its memory is its own.
final class MessengerIdleServerProcess {
    /// How the child's devices keep their secrets.
    enum Credentials: String {
        /// Salted token hashes, as every device registered today.
        case salted
        /// Argon2id at OWASP's cost (19 MiB, 2 passes), as devices registered before issue 22,
        /// under the default cap on concurrent verifications.
        case legacy
        /// The same with no practical cap: how the server behaved before.
        case legacyUncapped = "legacy-uncapped"
    }

    private let child: BenchChildServer

    init(devices: Int, credentials: Credentials = .salted) throws {
        child = try BenchChildServer(["messenger-idle-server", String(devices), credentials.rawValue])
    }

    var port: Int { child.port }

    /// The child's resident memory, in bytes.
    var residentBytes: Int { child.residentBytes }

    /// The child's peak resident memory, in bytes.
    var peakResidentBytes: Int { child.peakResidentBytes }

    func stop() { child.stop() }

    /// The child's side.
    static func serve(devices: Int, credentials: Credentials) -> Int32 {
        do {
            var configuration = MessengerBenchServer.configuration
            configuration.deliveryWindow = 16
            if credentials == .legacyUncapped { configuration.maximumConcurrentPasswordHashes = 10_000 }
            let server = try MessengerBenchServer(configuration: configuration)
            let password = MessengerServerBenchmark.password
            let hash =
                credentials == .salted
                ? configuration.hashPassword(password) : configuration.legacyArgon2idHash(password, owaspCost: true)
            guard let hash else { return 1 }
            guard let store = server.store as? SQLiteMessengerStore else { return 1 }
            try store.createAccounts(
                (0..<devices).map { "bench-\($0)" },
                device: DeviceRecord(id: 1, registrationId: 1, name: "bench", passwordHash: hash, createdAt: 0))
            FileHandle.standardOutput.write(Data("\(server.server.port)\n".utf8))
            _ = FileHandle.standardInput.readDataToEndOfFile()
            _ = server.server.stop(deadline: .zero)
            try? FileManager.default.removeItem(atPath: server.directory)
            return 0
        } catch {
            FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
            return 1
        }
    }
}
