import AnalyticsCollector
import CourierCore
import CourierHTTP
import CourierTesting
import Foundation

/// Where a test's event store lives: SQLite in memory or in a file, or a PostgreSQL database of
/// its own on the server `TestPostgres` starts.
enum CollectorBackend: String, CaseIterable, Sendable {
    case memory
    case file
    case postgres

    /// A SQLite store (`.postgres` gives a file).
    func makeStore(options: Database.Options = .init(), dedupeWindow: Duration = .seconds(86_400)) throws
        -> SQLiteEventStore
    {
        switch self {
        case .memory:
            return try SQLiteEventStore(path: ":memory:", options: options, dedupeWindow: dedupeWindow)
        case .file, .postgres:
            return try SQLiteEventStore(path: Self.temporaryPath(), options: options, dedupeWindow: dedupeWindow)
        }
    }

    /// A store on this backend.
    func makeEventStore(dedupeWindow: Duration = .seconds(86_400)) async throws -> any EventStore {
        guard self == .postgres else { return try makeStore(dedupeWindow: dedupeWindow) }
        let url = try await TestPostgres.shared.makeDatabase()
        return try await offPool { try PostgresEventStore(url: url, connections: 4) }
    }

    /// A database path in a new temporary folder.
    static func temporaryPath() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-collector-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent("collector.sqlite").path
    }
}

/// A real collector on a real HTTP server on 127.0.0.1 with an ephemeral port, a manual clock,
/// and a client to talk to it.
struct CollectorHarness {
    static let writeKey = "test-write-key"
    static let adminToken = "test-admin-token"

    let clock: ManualClock
    let store: any EventStore
    let collector: Collector
    let server: HTTPServer
    let client = HTTPClient(timeout: .seconds(30))

    init(
        backend: CollectorBackend = .memory, store: (any EventStore)? = nil, bus: any MessageBus = LocalMessageBus(),
        trustedProxies: [String] = [], configure: (inout CollectorConfiguration) -> Void = { _ in }
    ) async throws {
        clock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200))  // 2026-11-29T08:00:00Z
        let chosen: any EventStore
        if let store { chosen = store } else { chosen = try await backend.makeEventStore() }
        let store = chosen
        self.store = store
        var configuration = CollectorConfiguration()
        configuration.adminToken = Self.adminToken
        configure(&configuration)
        collector = Collector(configuration: configuration, store: store, clock: clock, bus: bus)
        try collector.register(writeKeys: [Self.writeKey])
        var router = Router()
        collector.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        http.trustedProxies = trustedProxies.compactMap(IPNetwork.init)
        http.maximumBodyBytes = configuration.maximumBatchBytes * 2
        http.maximumDecompressedBodyBytes = configuration.maximumBatchBytes + 1
        let metrics = HTTPMetrics()
        router.addHealthCheck()
        router.addMetrics(metrics, providers: [{ [collector] in collector.metricsText() }])
        server = HTTPServer(configuration: http, router: router, metrics: metrics)
        try server.start()
    }

    /// Stops the server, then the collector, on a thread of their own: the test does not wait.
    func stop() {
        inBackground { [server, collector] in
            server.stop()
            collector.shutdown()
        }
    }

    /// A browser's CORS preflight for `method` on `path`, over a raw socket, so the exact status
    /// (204) and headers are what the test sees.
    func preflight(_ path: String, method: String, origin: String) async -> (status: Int, head: String, body: [UInt8])?
    {
        let port = server.port
        return await runOffPool {
            guard let socket = try? RawSocket(port: port) else { return nil }
            try? socket.send(
                "OPTIONS \(path) HTTP/1.1\r\nHost: x\r\nOrigin: \(origin)\r\nAccess-Control-Request-Method: \(method)\r\n"
                    + "Access-Control-Request-Headers: content-type, authorization\r\n\r\n")
            return socket.readResponse()
        }
    }

    var basicAuth: String { "Basic " + Base64.encode(Array("\(Self.writeKey):".utf8)) }

    /// Posts raw bytes to `path` with the write key in HTTP Basic.
    func post(
        _ path: String = "/v1/batch", body: [UInt8], headers: [String: String] = [:],
        auth: String? = nil
    ) async throws -> HTTPClientResponse {
        var all = ["Content-Type": "application/json", "Authorization": auth ?? basicAuth]
        all.merge(headers) { _, new in new }
        if auth == "" { all["Authorization"] = nil }
        return try await client.send("POST", server.baseURL + path, headers: all, body: body)
    }

    /// Posts a JSON value.
    func post(
        _ path: String = "/v1/batch", json: JSONValue, auth: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> HTTPClientResponse {
        try await post(path, body: JSONWriter.encode(json), headers: headers, auth: auth)
    }

    /// Posts a JSON batch over a connection of its own (URLSession may queue requests to one
    /// host behind each other; tests of concurrency need each request on its own socket).
    func rawPost(_ json: JSONValue, path: String = "/v1/batch") async throws -> (
        status: Int, head: String, body: [UInt8]
    ) {
        let body = JSONWriter.encode(json)
        let port = server.port
        let auth = basicAuth
        let result: Result<(status: Int, head: String, body: [UInt8]), any Error> = await runOffPool {
            Result {
                let socket = try RawSocket(port: port, timeoutSeconds: 60)
                try socket.send(
                    "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(auth)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                )
                try socket.send(body)
                guard let response = socket.readResponse() else { throw RawSocket.Failure(description: "no response") }
                return response
            }
        }
        return try result.get()
    }

    /// Reads every stored event of the test project through `GET /v1/events`.
    func storedEvents(writeKey: String = writeKey, pageSize: Int = 1000) async throws -> [JSONValue] {
        var events: [JSONValue] = []
        var after = "0"
        while true {
            let response = try await client.send(
                "GET", server.baseURL + "/v1/events?writeKey=\(writeKey)&after=\(after)&limit=\(pageSize)",
                headers: ["Authorization": "Bearer \(Self.adminToken)"])
            guard response.status == 200, let page = response.json, let list = page["events"]?.arrayValue else {
                throw HTTPClientError(message: "events read failed: \(response.status)", isTimeout: false)
            }
            events += list
            guard let next = page["nextCursor"]?.stringValue else { return events }
            after = next
        }
    }

    /// A track message.
    static func track(_ id: String, event: String = "Signed Up", extra: [String: JSONValue] = [:]) -> JSONValue {
        var message: [String: JSONValue] = [
            "type": "track", "event": .string(event), "userId": "user-1",
            "messageId": .string(id), "properties": ["plan": "pro", "price": 19.99],
        ]
        message.merge(extra) { _, new in new }
        return .object(message)
    }

    /// A batch of `count` track messages with ids `prefix-0…`.
    static func batch(_ count: Int, prefix: String = "m") -> JSONValue {
        ["batch": .array((0..<count).map { track("\(prefix)-\($0)") })]
    }
}
