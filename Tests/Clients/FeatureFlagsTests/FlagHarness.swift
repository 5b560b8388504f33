import CourierCore
import CourierHTTP
import CourierTesting
import FlagServer
import Foundation

/// A real flag server on 127.0.0.1 with an ephemeral port, a manual clock and a SQLite store.
struct FlagHarness {
    static let adminToken = "test-admin-token"
    static let environment = "production"

    let clock: ManualClock
    let service: FlagService
    let server: HTTPServer
    let client = HTTPClient(timeout: .seconds(30))

    init(clock: ManualClock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200))) throws {
        self.clock = clock
        var configuration = FlagServerConfiguration()
        configuration.adminToken = Self.adminToken
        configuration.gzipThresholdBytes = 64
        service = FlagService(configuration: configuration, store: try SQLiteFlagStore(path: ":memory:"), clock: clock)
        var router = Router()
        service.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        server = HTTPServer(configuration: http, router: router)
        try server.start()
    }

    var baseURL: String { server.baseURL }

    /// Stops the server on a thread of its own: the test does not wait.
    func stop() {
        inBackground { [server] in server.stop() }
    }

    /// `PUT` a flag definition through the admin API.
    @discardableResult
    func put(_ definition: JSONValue, environment: String = environment) async throws -> HTTPClientResponse {
        let key = definition["key"]?.stringValue ?? "missing"
        return try await client.sendJSON(
            "PUT", "\(baseURL)/v1/flags/\(environment)/definitions/\(key)", definition, headers: Self.admin)
    }

    static let admin = ["Authorization": "Bearer \(adminToken)"]
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
