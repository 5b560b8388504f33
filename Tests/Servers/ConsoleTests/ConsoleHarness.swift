import AnalyticsCollector
import Console
import CourierCore
import CourierHTTP
import CourierTesting
import FlagServer
import Foundation

/// A collector, a flag service and the console on one HTTP server, as courier-server mounts them,
/// with a manual clock and the console's sessions in `sessions` (in memory by default):
/// listening on 127.0.0.1 with an ephemeral port, or (`listening: false`) answering in process
/// only, through the same pipeline with no socket. Requests go over raw
/// sockets (or in process) so each carries exactly the cookies and headers the test gives
/// (URLSession keeps a cookie jar of its own).
struct ConsoleHarness {
    static let writeKey = "console-write-key"
    static let adminToken = "console-admin-token"

    let clock: ManualClock
    let collector: Collector
    let console: Console
    let server: HTTPServer
    let listening: Bool

    init(
        listening: Bool = true, sessions: any ConsoleSessionStore = InMemoryConsoleSessionStore(),
        configure: (inout ConsoleConfiguration) -> Void = { _ in },
        configureCollector: (inout CollectorConfiguration) -> Void = { _ in }
    ) throws {
        clock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200))  // 2026-11-29T08:00:00Z
        var collectorConfiguration = CollectorConfiguration()
        collectorConfiguration.adminToken = Self.adminToken
        collectorConfiguration.liveStreamInterval = .zero
        configureCollector(&collectorConfiguration)
        collector = Collector(
            configuration: collectorConfiguration, store: try SQLiteEventStore(path: ":memory:"), clock: clock)
        try collector.register(writeKeys: [Self.writeKey])
        var flagConfiguration = FlagServerConfiguration()
        flagConfiguration.adminToken = Self.adminToken
        let flags = FlagService(
            configuration: flagConfiguration, store: try SQLiteFlagStore(path: ":memory:"), clock: clock)
        var configuration = ConsoleConfiguration()
        configuration.adminToken = Self.adminToken
        configure(&configuration)
        console = Console(configuration: configuration, sessions: sessions, clock: clock)
        var router = Router()
        collector.mount(on: &router)
        flags.mount(on: &router)
        console.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        server = HTTPServer(
            configuration: http, router: router, middleware: [console.middleware])
        self.listening = listening
        if listening { try server.start() }
    }

    func stop() {
        inBackground { [server, collector] in
            server.stop()
            collector.shutdown()
        }
    }

    /// One answer as the test reads it.
    struct Answer: Sendable {
        let status: Int
        let head: String
        let body: [UInt8]

        var json: JSONValue? { try? JSONParser.parse(body) }
        var text: String { String(decoding: body, as: UTF8.self) }

        /// The value of header `name` (any case), the first if repeated.
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// Sends one request on a connection of its own.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) async throws -> Answer {
        guard listening else {
            var all = headers
            all["Host"] = "127.0.0.1"
            let response = try await RouterTestClient(server: server).execute(
                HTTPMethod(rawValue: method), path, headers: all, body: body)
            var head = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)"
            for (name, value) in response.headers { head += "\r\n\(name): \(value)" }
            return Answer(status: response.status.code, head: head, body: response.body)
        }
        let port = server.port
        let result: Result<Answer, any Error> = await runOffPool {
            Result {
                let socket = try RawSocket(port: port, timeoutSeconds: 30)
                var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                for (name, value) in headers { head += "\(name): \(value)\r\n" }
                head += "Content-Length: \(body.count)\r\n\r\n"
                try socket.send(head)
                if !body.isEmpty { try socket.send(body) }
                guard let response = socket.readResponse() else { throw RawSocket.Failure(description: "no response") }
                return Answer(status: response.status, head: response.head, body: response.body)
            }
        }
        return try result.get()
    }

    /// Sends JSON.
    func request(_ method: String, _ path: String, json: JSONValue, headers: [String: String] = [:]) async throws
        -> Answer
    {
        var all = headers
        all["Content-Type"] = "application/json"
        return try await request(method, path, headers: all, body: JSONWriter.encode(json))
    }

    /// A signed-in session: its cookie header value and CSRF token.
    struct SignedIn: Sendable {
        let cookie: String
        let csrfToken: String

        var readHeaders: [String: String] { ["Cookie": cookie] }
        var writeHeaders: [String: String] { ["Cookie": cookie, "X-CSRF-Token": csrfToken] }
    }

    /// Signs in with the admin token.
    func signIn() async throws -> SignedIn {
        let answer = try await request("POST", "/console/api/session", json: ["token": .string(Self.adminToken)])
        guard answer.status == 200, let setCookie = answer.header("set-cookie"),
            let pair = setCookie.split(separator: ";").first, let csrf = answer.json?["csrfToken"]?.stringValue
        else {
            throw RawSocket.Failure(description: "sign-in failed: \(answer.status) \(answer.text)")
        }
        return SignedIn(cookie: String(pair), csrfToken: csrf)
    }

    /// Sends a batch of events with the write key.
    func track(_ events: [JSONValue]) async throws -> Answer {
        try await request(
            "POST", "/v1/batch", json: ["batch": .array(events)],
            headers: ["Authorization": "Basic " + Base64.encode(Array("\(Self.writeKey):".utf8))])
    }
}

/// The stores a console keeps its sessions in, for tests that run one body on each.
enum SessionBackend: String, CaseIterable, CustomStringConvertible {
    /// `InMemoryConsoleSessionStore`, the default.
    case memory
    /// `PostgresConsoleSessionStore` on a database of its own.
    case postgres

    var description: String { rawValue }

    /// An empty store.
    func makeStore() async throws -> any ConsoleSessionStore {
        switch self {
        case .memory: return InMemoryConsoleSessionStore()
        case .postgres:
            let url = try await TestPostgres.shared.makeDatabase()
            return try await offPool { try PostgresConsoleSessionStore(url: url) }
        }
    }
}
