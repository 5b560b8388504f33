import CourierCore
import CourierHTTP
import CourierTesting
import Sync
import SyncWire
import Testing

/// Bad requests to the sync routes get a clear JSON error, and nothing is applied: called in
/// process (no socket), except where a real sync client takes part.
@Suite(.timeLimit(.minutes(1)))
struct SyncServerRouteTests {
    let client = HTTPClient(timeout: .seconds(30))
    static let auth = ["Authorization": "Bearer \(SyncHarness.token)"]

    @Test(arguments: [
        ("POST", "/v1/sync/push", "{}", [String: String](), 401, "unauthorized"),
        ("GET", "/v1/sync/changes", "", ["Authorization": "Bearer nobody"], 401, "unauthorized"),
        ("POST", "/v1/sync/push", "{not json", auth, 400, "invalid_request"),
        ("POST", "/v1/sync/push", #"{"clientID":"c","operations":[{"id":"x"}]}"#, auth, 400, "invalid_request"),
        // U+0000, which PostgreSQL cannot store, is refused up front on either engine.
        ("POST", "/v1/sync/push", #"{"clientID":"c\u0000","operations":[]}"#, auth, 400, "invalid_request"),
        (
            "POST", "/v1/sync/push",
            #"{"clientID":"c","operations":[{"id":"o\u0000","sequence":1,"collection":"notes","recordID":"r","baseVersion":0,"op":"set","fields":{}}]}"#,
            auth, 400, "invalid_request"
        ),
        ("GET", "/v1/sync/changes?since=abc.def", "", auth, 400, "invalid_cursor"),
        ("GET", "/v1/sync/changes?limit=0", "", auth, 400, "invalid_request"),
        ("GET", "/v1/sync/collections/no%20spaces/records", "", auth, 400, "invalid_request"),
        ("GET", "/v1/sync/collections/notes/records?before=a.b&after=c.d", "", auth, 400, "invalid_request"),
    ])
    func badRequestsGetATypedError(
        method: String, path: String, body: String, headers: [String: String], status: Int, code: String
    ) async throws {
        let harness = try await SyncHarness(listening: false)
        defer { harness.stop() }
        let response = try await harness.routes.execute(
            HTTPMethod(rawValue: method), path, headers: headers, body: Array(body.utf8))
        #expect(response.status.code == status)
        #expect(response.jsonBody?["error"]?["code"]?.stringValue == code)
        #expect(response.header("www-authenticate") == nil)
    }

    /// Unknown tokens are guesses: past the budget the client network gets 429, a known token
    /// included, until it refills; another network is not affected, and no token spends nothing.
    @Test func unknownTokensPastTheBudgetAre429ForThatClientNetwork() async throws {
        let harness = try await SyncHarness(listening: false) {
            $0.failedAuthenticationRate = RateLimit(perSecond: 1, burst: 3)
        }
        defer { harness.stop() }
        func status(_ token: String?, from client: String = "198.51.100.7") async throws -> Int {
            let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
            return try await harness.routes.execute("GET", "/v1/sync/changes", headers: headers, remoteAddress: client)
                .status.code
        }
        for _ in 0..<5 { #expect(try await status(nil) == 401) }
        for guess in 0..<3 { #expect(try await status("guess-\(guess)") == 401) }
        let limited = try await harness.routes.execute(
            "GET", "/v1/sync/changes", headers: Self.auth, remoteAddress: "198.51.100.7")
        #expect(limited.status == 429)
        #expect(limited.header("retry-after") == "1")
        #expect(try await status(SyncHarness.token, from: "198.51.100.8") == 200)
        harness.clock.advance(by: .seconds(1))
        #expect(try await status(SyncHarness.token) == 200)
    }

    /// A client whose network's budget someone else spent is told to try again later
    /// (`transport`), not that the server answered something invalid, and syncs once it refills.
    @Test func aClientBehindASpentBudgetRetriesLaterAndThenSyncs() async throws {
        let harness = try await SyncHarness { $0.failedAuthenticationRate = RateLimit(perSecond: 1, burst: 2) }
        defer { harness.stop() }
        let (client, _) = try harness.client("phone")
        for guess in 0..<2 {
            let answer = try await harness.routes.execute(
                "GET", "/v1/sync/changes", headers: ["Authorization": "Bearer guess-\(guess)"])
            #expect(answer.status == 401)
        }
        let refused = await #expect(throws: SyncError.self) { try await client.sync() }
        #expect(refused?.code == .transport)
        harness.clock.advance(by: .seconds(1))
        try await client.sync()
    }

    @Test(arguments: StoreBackend.allCases)
    func aPushOverTheOperationLimitIsRefusedWhole(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend, listening: false) { $0.maximumOperationsPerPush = 2 }
        defer { harness.stop() }
        let operations: [JSONValue] = (1...3).map { n in
            SyncOperation(
                id: "op-\(n)", sequence: Int64(n), collection: "notes", recordID: "r\(n)",
                kind: .set(["n": .int(Int64(n))]),
                baseVersion: 0, hlc: ""
            ).json
        }
        let response = try await harness.routes.execute(
            "POST", "/v1/sync/push", json: ["clientID": "c", "operations": .array(operations)], headers: Self.auth)
        #expect(response.status == 413)
        #expect(try await harness.serverSnapshot().records.isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func aTamperedChangesCursorIsRefused(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend, listening: false)
        defer { harness.stop() }
        let first = try await harness.routes.execute("GET", "/v1/sync/changes", headers: Self.auth)
        let cursor = try #require(first.jsonBody?["cursor"]?.stringValue)
        var bytes = Array(cursor.utf8)
        bytes[2] = bytes[2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let tampered = String(decoding: bytes, as: UTF8.self)
        let response = try await harness.routes.execute(
            "GET", "/v1/sync/changes?since=" + tampered, headers: Self.auth)
        #expect(response.status == 400)
        #expect(response.jsonBody?["error"]?["code"] == "invalid_cursor")
    }

    @Test(arguments: StoreBackend.allCases)
    func ownersSeeOnlyTheirOwnRecords(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend)
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        try await alice.create("notes", fields: ["title": "private"])
        try await alice.sync()
        let response = try await client.send(
            "GET", harness.baseURL + "/v1/sync/snapshot", headers: ["Authorization": "Bearer token-bob"])
        #expect(response.status == 200)
        #expect(response.json?["records"]?.arrayValue?.isEmpty == true)
    }
}
