import CourierCore
import CourierHTTP
import CourierPostgres
import CourierTesting
import FlagRules
import FlagServer
import Foundation
import Synchronization
import Testing

/// The flag routes, called in process (no socket; the pipeline is the engine's): edits validated
/// and audited, ETag and 304, gzip, server-side evaluation, expired listing. Each body that goes
/// through the store runs on SQLite and on PostgreSQL.
@Suite(.timeLimit(.minutes(2)))
struct FlagServerTests {
    @Test(arguments: StoreBackend.allCases)
    func malformedDefinitionIsRefusedAndNeverServed(backend: StoreBackend) async throws {
        let harness = try await FlagHarness(backend: backend, listening: false)
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        var bad = checkoutDefinition()
        if case .object(var object) = bad {
            object["rules"] = [["id": "r", "value": true, "rollout": ["percentage": "half"]]]
            bad = .object(object)
        }
        let refused = try await harness.put(bad)
        #expect(refused.status == 422)
        #expect(refused.jsonBody?["error"]?["code"] == "invalid_definition")
        #expect(refused.jsonBody?["error"]?["message"] == "rules[0].rollout.percentage: must be a number from 0 to 100")
        let served = try await harness.routes.execute("GET", "/v1/flags/production")
        #expect(served.jsonBody?["version"] == 1)
        #expect(served.jsonBody?["flags"]?.arrayValue?.first?["rules"]?.arrayValue?.count == 2)
        let unauthorized = try await harness.routes.execute(
            "PUT", "/v1/flags/production/definitions/new-checkout", json: checkoutDefinition())
        #expect(unauthorized.status == 403)
    }

    /// A pattern RE2 cannot compile (here a lookbehind) is refused at the admin API with 422 and
    /// a message that names RE2, and nothing is stored.
    @Test(arguments: StoreBackend.allCases)
    func regexRE2CannotCompileIsRefusedWith422(backend: StoreBackend) async throws {
        let harness = try await FlagHarness(backend: backend, listening: false)
        defer { harness.stop() }
        let definition: JSONValue = [
            "key": "staff", "type": "bool", "value": false,
            "rules": [
                [
                    "id": "staff", "value": true,
                    "conditions": [["attribute": "email", "operator": "regex", "values": ["(?<=@)example\\.com$"]]],
                ]
            ],
        ]
        let refused = try await harness.put(definition)
        #expect(refused.status == 422)
        #expect(refused.jsonBody?["error"]?["code"] == "invalid_definition")
        let message = refused.jsonBody?["error"]?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("rules[0].conditions[0].values[0]: "), "\(message)")
        #expect(message.contains("RE2"), "\(message)")
        let served = try await harness.routes.execute("GET", "/v1/flags/production")
        #expect(served.status == 404)
    }

    @Test(arguments: StoreBackend.allCases)
    func etagGives304AndChangesWithEachEdit(backend: StoreBackend) async throws {
        let harness = try await FlagHarness(backend: backend, listening: false)
        defer { harness.stop() }
        let missing = try await harness.routes.execute("GET", "/v1/flags/production")
        #expect(missing.status == 404)
        try await harness.put(checkoutDefinition())
        let first = try await harness.routes.execute("GET", "/v1/flags/production")
        let etag = try #require(first.header("etag"))
        let again = try await harness.routes.execute("GET", "/v1/flags/production", headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        try await harness.put(checkoutDefinition(value: true))
        let changed = try await harness.routes.execute("GET", "/v1/flags/production", headers: ["If-None-Match": etag])
        #expect(changed.status == 200)
        #expect(changed.header("etag") != etag)
        #expect(changed.jsonBody?["version"] == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func definitionsAreGzippedForClientsThatAcceptIt(backend: StoreBackend) async throws {
        let harness = try await FlagHarness(backend: backend, listening: false)
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        let answer = try await harness.routes.execute(
            "GET", "/v1/flags/production", headers: ["Accept-Encoding": "gzip"])
        #expect(answer.header("content-encoding") == "gzip")
        let plain = try Gzip.decompress(answer.body, limit: 1 << 20)
        #expect(try JSONParser.parse(plain)["flags"]?.arrayValue?.first?["key"] == "new-checkout")
    }

    /// Every admin route is in the admin group: without the token it is refused before its
    /// handler runs, while the public routes beside it need none.
    @Test(arguments: [
        ("GET", "/definitions"), ("PUT", "/definitions/new-checkout"), ("POST", "/definitions/new-checkout/kill"),
        ("PUT", "/segments/beta"), ("GET", "/audit"),
    ])
    func adminRoutesNeedTheAdminToken(method: String, path: String) async throws {
        let harness = try await FlagHarness()
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        let url = "\(harness.baseURL)/v1/flags/production\(path)"
        for headers in [[:], ["Authorization": "Bearer wrong"]] {
            let refused = try await harness.client.send(method, url, headers: headers)
            #expect(refused.status == 403)
            #expect(refused.json?["error"]?["code"] == "forbidden")
        }
        let served = try await harness.client.send("GET", "\(harness.baseURL)/v1/flags/production")
        #expect(served.status == 200)
    }

    @Test(arguments: StoreBackend.allCases)
    func killEditsTheFlagAndEveryChangeIsAudited(backend: StoreBackend) async throws {
        let harness = try await FlagHarness(backend: backend, listening: false)
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        let killed = try await harness.routes.execute(
            "POST", "/v1/flags/production/definitions/new-checkout/kill", headers: FlagHarness.admin)
        #expect(killed.status == 200)
        #expect(killed.jsonBody?["flag"]?["enabled"] == false)
        let unknown = try await harness.routes.execute(
            "POST", "/v1/flags/production/definitions/nope/kill", headers: FlagHarness.admin)
        #expect(unknown.status == 404)
        #expect(unknown.jsonBody?["error"]?["message"] == "no flag nope in environment production")
        let elsewhere = try await harness.routes.execute(
            "POST", "/v1/flags/staging/definitions/new-checkout/kill", headers: FlagHarness.admin)
        #expect(elsewhere.status == 404)
        #expect(elsewhere.jsonBody?["error"]?["message"] == "no flag new-checkout in environment staging")
        // The refused kills changed nothing: no version, no environment, no audit row.
        let environments = try await harness.routes.execute("GET", "/v1/flags", headers: FlagHarness.admin)
        #expect(environments.jsonBody?["environments"] == [["key": "production", "version": 2]])
        let audit = try await harness.routes.execute("GET", "/v1/flags/production/audit", headers: FlagHarness.admin)
        let entries = try #require(audit.jsonBody?["entries"]?.arrayValue)
        #expect(entries.map { $0["action"] } == ["kill", "set"])
        #expect(entries[0]["before"]?["enabled"] == true)
        #expect(entries[0]["after"]?["enabled"] == false)
        #expect(entries[1]["before"] == .null)
        #expect(entries[0]["version"] == 2)
    }

    /// An edit sent with the listing's `ETag` as `If-Match` is stored only while the environment
    /// is at that version: one made from an older read is refused (412) and changes nothing.
    @Test(arguments: StoreBackend.allCases)
    func anEditWithIfMatchIsStoredOnlyAtTheVersionItWasMadeFrom(backend: StoreBackend) async throws {
        let harness = try await FlagHarness(backend: backend, listening: false)
        defer { harness.stop() }
        func put(_ definition: JSONValue, ifMatch: String?, environment: String = "production") async throws
            -> HTTPResponse
        {
            var headers = FlagHarness.admin
            if let ifMatch { headers["If-Match"] = ifMatch }
            return try await harness.routes.execute(
                "PUT", "/v1/flags/\(environment)/definitions/new-checkout", json: definition, headers: headers)
        }
        #expect(try await put(checkoutDefinition(), ifMatch: "\"0\"").status == 200)
        let listed = try await harness.routes.execute(
            "GET", "/v1/flags/production/definitions", headers: FlagHarness.admin)
        #expect(listed.header("etag") == "\"1\"")
        #expect(try await put(checkoutDefinition(value: true), ifMatch: "\"1\"").jsonBody?["version"] == 2)

        let stale = try await put(checkoutDefinition(enabled: false), ifMatch: "\"1\"")
        #expect(stale.status == 412)
        #expect(stale.jsonBody?["error"]?["code"] == "environment_changed")
        #expect(
            stale.jsonBody?["error"]?["message"]
                == "environment production is at version 2, not \"1\": it changed since it was read; read it again")
        var killHeaders = FlagHarness.admin
        killHeaders["If-Match"] = "\"1\""
        let staleKill = try await harness.routes.execute(
            "POST", "/v1/flags/production/definitions/new-checkout/kill", headers: killHeaders)
        #expect(staleKill.status == 412)
        let newEnvironment = try await put(checkoutDefinition(), ifMatch: "\"3\"", environment: "staging")
        #expect(newEnvironment.status == 412)
        // Strong comparison by text (RFC 9110): a weak tag, or "02", never matches.
        #expect(try await put(checkoutDefinition(), ifMatch: "W/\"2\"").status == 412)
        #expect(try await put(checkoutDefinition(), ifMatch: "\"02\"").status == 412)
        #expect(try await put(checkoutDefinition(), ifMatch: "2").status == 400)
        var missing = FlagHarness.admin
        missing["If-Match"] = "*"
        let absent = try await harness.routes.execute(
            "PUT", "/v1/flags/production/definitions/absent", json: ["type": "bool", "value": false], headers: missing)
        #expect(absent.status == 412)
        let stored = try await harness.routes.execute(
            "GET", "/v1/flags/production/definitions", headers: FlagHarness.admin)
        #expect(stored.jsonBody?["version"] == 2)
        #expect(stored.jsonBody?["flags"]?.arrayValue?.first?["value"] == true)
        #expect(stored.jsonBody?["flags"]?.arrayValue?.first?["enabled"] == true)
        let environments = try await harness.routes.execute("GET", "/v1/flags", headers: FlagHarness.admin)
        #expect(environments.jsonBody?["environments"] == [["key": "production", "version": 2]])

        let starred = try await put(checkoutDefinition(enabled: false), ifMatch: "*")
        #expect(starred.jsonBody?["version"] == 3)
        #expect(starred.header("etag") == "\"3\"")
        killHeaders["If-Match"] = "\"7\", \"3\""
        let kill = try await harness.routes.execute(
            "POST", "/v1/flags/production/definitions/new-checkout/kill", headers: killHeaders)
        #expect(kill.status == 200)
    }

    /// An edit that waits past the store's lock timeout for another transaction holding its
    /// environment is refused as "try again" (503 with `Retry-After`), not as a store outage, and
    /// stores nothing; once the other commits, the same edit goes through.
    @Test func anEditHeldBackPastTheLockTimeoutIsRefusedAsRetryLater() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let store = try await offPool {
            try PostgresFlagStore(url: url, connections: 2, lockTimeout: .milliseconds(200))
        }
        let harness = try await FlagHarness(backend: .postgres, listening: false, store: store)
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        let holder = try await offPool { try LockHolder(url: url) }
        try await offPool {
            try holder.connection.withLock { db in
                try db.execute("BEGIN")
                try db.execute("SELECT version FROM flag_environments WHERE env_key = 'production' FOR UPDATE")
            }
        }
        let refused = try await harness.put(checkoutDefinition(value: true))
        #expect(refused.status == 503)
        #expect(refused.jsonBody?["error"]?["code"] == "unavailable")
        #expect(
            refused.jsonBody?["error"]?["message"]
                == "another edit of environment production held it too long; nothing was stored: retry")
        #expect(refused.header("retry-after") == "1")
        try await offPool { try holder.connection.withLock { try $0.execute("ROLLBACK") } }
        let stored = try await harness.routes.execute(
            "GET", "/v1/flags/production/definitions", headers: FlagHarness.admin)
        #expect(stored.jsonBody?["version"] == 1)
        #expect(try await harness.put(checkoutDefinition(value: true)).jsonBody?["version"] == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func theEnvironmentsAreListedByKeyWithTheirVersionsForTheAdminOnly(backend: StoreBackend) async throws {
        let harness = try await FlagHarness(backend: backend, listening: false)
        defer { harness.stop() }
        let empty = try await harness.routes.execute("GET", "/v1/flags", headers: FlagHarness.admin)
        #expect(empty.status == 200)
        #expect(empty.jsonBody?["environments"] == [])
        try await harness.put(checkoutDefinition(), environment: "staging")
        try await harness.put(checkoutDefinition())
        try await harness.put(checkoutDefinition(value: true))
        let listed = try await harness.routes.execute("GET", "/v1/flags", headers: FlagHarness.admin)
        #expect(
            listed.jsonBody?["environments"]
                == [["key": "production", "version": 2], ["key": "staging", "version": 1]])
        let refused = try await harness.routes.execute("GET", "/v1/flags")
        #expect(refused.status == 403)
    }

    @Test(arguments: StoreBackend.allCases)
    func expiredListingFollowsTheClock(backend: StoreBackend) async throws {
        let harness = try await FlagHarness(backend: backend, listening: false)  // 2026-11-29
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())  // expires 2027-06-30
        try await harness.put(["key": "old-banner", "type": "bool", "value": false, "expires": "2026-01-31"])
        let expired = try await harness.routes.execute(
            "GET", "/v1/flags/production/definitions?expired=true", headers: FlagHarness.admin)
        #expect(expired.jsonBody?["flags"]?.arrayValue?.compactMap { $0["key"]?.stringValue } == ["old-banner"])
        harness.clock.setWallTime(Date(timeIntervalSince1970: 1_830_000_000))  // 2027-12
        let later = try await harness.routes.execute(
            "GET", "/v1/flags/production/definitions?expired=true", headers: FlagHarness.admin)
        #expect(later.jsonBody?["flags"]?.arrayValue?.count == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func serverEvaluationEqualsTheClientsRuleEvaluator(backend: StoreBackend) async throws {
        let harness = try await FlagHarness(backend: backend, listening: false)
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        let document = try FlagDocument.parse(
            try #require(try await harness.routes.execute("GET", "/v1/flags/production").jsonBody))
        for id in ["user-1", "user-2", "user-3", "用户-🎉"] {
            for country in ["FR", "DE"] {
                let context = EvaluationContext(targetingKey: id, attributes: ["country": .string(country)])
                let answer = try await harness.routes.execute(
                    "POST", "/v1/flags/production/evaluate", json: ["context": context.json])
                let served = try #require(answer.jsonBody?["flags"]?["new-checkout"])
                let local = try #require(document.flags["new-checkout"])
                #expect(Resolution(json: served) == RuleEvaluator.evaluate(local, context: context))
            }
        }
        let unknown = try await harness.routes.execute(
            "POST", "/v1/flags/production/evaluate", json: ["flags": ["nope"]])
        #expect(unknown.jsonBody?["flags"]?["nope"]?["errorCode"] == "FLAG_NOT_FOUND")
        let bad = try await harness.routes.execute("POST", "/v1/flags/production/evaluate", body: Array("{".utf8))
        #expect(bad.status == 400)
    }

    /// An evaluation's work and answer are bounded by the environment's definitions, not by the
    /// body: a flag named many times is evaluated and answered once, and a list naming more than
    /// 100 flags the environment does not define is refused (defined ones do not count).
    @Test func anEvaluationNamingFlagsOverAndOverCostsNoMoreThanTheDefinitions() async throws {
        let harness = try await FlagHarness(backend: .sqlite, listening: false)
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        let repeated = JSONValue.array(Array(repeating: "new-checkout", count: 2_000) + ["nope", "nope"])
        let once = try await harness.routes.execute(
            "POST", "/v1/flags/production/evaluate", json: ["flags": repeated])
        #expect(once.status == 200)
        #expect(once.jsonBody?["flags"]?.objectValue?.count == 2)
        let tooMany = JSONValue.array((0...FlagService.maximumUnknownFlagsAnswered).map { .string("flag-\($0)") })
        let refused = try await harness.routes.execute(
            "POST", "/v1/flags/production/evaluate", json: ["flags": tooMany])
        #expect(refused.status == 400)
        let fine = JSONValue.array(
            (0..<FlagService.maximumUnknownFlagsAnswered).map { .string("flag-\($0)") } + ["new-checkout"])
        #expect(
            try await harness.routes.execute("POST", "/v1/flags/production/evaluate", json: ["flags": fine]).status
                == 200)
    }
}

/// A connection of its own that holds a lock in an open transaction while a test's edits wait.
final class LockHolder: Sendable {
    let connection: Mutex<PostgresConnection>
    init(url: String) throws { connection = Mutex(try PostgresConnection(url: url)) }
}
