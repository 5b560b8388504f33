import CourierCore
import CourierHTTP
import CourierTesting
import FlagServer
import Foundation

/// A flag service with a manual clock and a SQLite store (or, `backend: .postgres`, a PostgreSQL
/// database of its own), on a real server on 127.0.0.1 with an ephemeral port, or
/// (`listening: false`) answering in process only, through `routes`. Two harnesses given one
/// `store` and one `bus` are two instances of the server.
struct FlagHarness {
    static let adminToken = "test-admin-token"
    static let environment = "production"

    let clock: ManualClock
    let service: FlagService
    let server: HTTPServer
    let client = HTTPClient(timeout: .seconds(30))
    /// The server's routes and middleware, called in process (no socket).
    let routes: RouterTestClient
    let listening: Bool

    init(
        backend: StoreBackend = .sqlite,
        clock: ManualClock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200)), listening: Bool = true,
        store: (any FlagStore)? = nil, bus: any MessageBus = LocalMessageBus()
    ) async throws {
        self.clock = clock
        var configuration = FlagServerConfiguration()
        configuration.adminToken = Self.adminToken
        configuration.gzipThresholdBytes = 64
        let chosen: any FlagStore
        if let store { chosen = store } else { chosen = try await Self.makeStore(backend) }
        let store = chosen
        service = FlagService(configuration: configuration, store: store, clock: clock, bus: bus)
        var router = Router()
        service.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        server = HTTPServer(configuration: http, router: router)
        routes = RouterTestClient(server: server)
        self.listening = listening
        if listening { try server.start() }
    }

    var baseURL: String { server.baseURL }

    /// Stops the server on a thread of its own: the test does not wait.
    func stop() {
        if listening { inBackground { [server] in server.stop() } }
    }

    /// `PUT` a flag definition through the admin API (in process).
    @discardableResult
    func put(_ definition: JSONValue, environment: String = environment) async throws -> HTTPResponse {
        let key = definition["key"]?.stringValue ?? "missing"
        return try await routes.execute(
            "PUT", "/v1/flags/\(environment)/definitions/\(key)", json: definition, headers: Self.admin)
    }

    static let admin = ["Authorization": "Bearer \(adminToken)"]

    /// An empty store on `backend`: SQLite in memory, or a PostgreSQL database of its own.
    static func makeStore(_ backend: StoreBackend) async throws -> any FlagStore {
        switch backend {
        case .sqlite: return try SQLiteFlagStore(path: ":memory:")
        case .postgres: return try await makePostgresStore(url: try await TestPostgres.shared.makeDatabase())
        }
    }

    /// A PostgreSQL store on `url`, connected and migrated off Swift's cooperative pool.
    static func makePostgresStore(url: String) async throws -> PostgresFlagStore {
        try await offPool { try PostgresFlagStore(url: url, connections: 2) }
    }
}

/// A boolean flag with one targeting rule (country FR) and a 50 % Unleash rollout.
func checkoutDefinition(enabled: Bool = true, value: Bool = false) -> JSONValue {
    [
        "key": "new-checkout", "type": "bool", "enabled": .bool(enabled), "value": .bool(value),
        "owner": "checkout", "expires": "2027-06-30",
        "rules": [
            [
                "id": "france", "conditions": [["attribute": "country", "operator": "in", "values": ["FR"]]],
                "value": true,
            ],
            ["id": "ramp", "rollout": ["percentage": 50, "algorithm": "unleash"], "value": true],
        ],
    ]
}
