import CourierCore
import CourierHTTP
import CourierTesting
import FeatureFlags
import FlagRules
import Foundation
import Synchronization
import Testing

extension Flag where Value == Bool {
    static let newCheckout = Flag("new-checkout", default: false)
}

/// The client against the real flag server on loopback: defaults offline, activation at safe
/// points only, last-known-good on disk, the kill switch, 304, malformed definitions.
@Suite(.timeLimit(.minutes(2)))
struct FeatureFlagsClientTests {
    let cachePath = FileManager.default.temporaryDirectory
        .appendingPathComponent("flags-\(UUID().uuidString)/flags.json").path
    let french = EvaluationContext(targetingKey: "user-1", attributes: ["country": "FR"])

    func client(_ server: String, clock: any Clock = SystemClock()) -> FeatureFlags {
        var configuration = FeatureFlagsConfiguration(
            serverURL: server, environmentKey: FlagHarness.environment,
            cacheStore: FileFlagCacheStore(path: cachePath))
        configuration.clock = clock
        configuration.minimumFetchInterval = .seconds(60)
        configuration.backoff = Backoff(base: .milliseconds(1), cap: .milliseconds(1))
        return FeatureFlags(configuration: configuration)
    }

    @Test func offlineFirstLaunchGivesTheBakedDefault() async throws {
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let flags = client(down.url)
        guard case .failed = await flags.start() else {
            Issue.record("an unreachable server must be a failed fetch")
            return
        }
        let details = flags.details(.newCheckout, context: french)
        #expect(details.value == false)
        #expect(details.reason == .default)
        #expect(flags.value(Flag("limit", default: 25)) == 25)
    }

    @Test func fetchedValuesWaitForActivateAndObserversSeeOneSnapshotEach() async throws {
        let harness = try await FlagHarness()
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        let flags = client(harness.baseURL)
        let seen = Mutex<[Int64]>([])
        let observation = flags.observe { snapshot in seen.withLock { $0.append(snapshot.version) } }
        defer { observation.cancel() }
        #expect(await flags.start() == .fetched(version: 1))
        // Fetched, not active: the screen on show keeps the default.
        #expect(flags.details(.newCheckout, context: french).reason == .default)
        #expect(flags.activate())
        #expect(flags.details(.newCheckout, context: french).value == true)
        #expect(flags.details(.newCheckout, context: french).reason == .targetingMatch)

        try await harness.put(checkoutDefinition(value: true))
        let outsider = EvaluationContext(targetingKey: "user-outside", attributes: ["country": "DE"])
        let before = flags.details(.newCheckout, context: outsider)
        #expect(await flags.fetch(force: true) == .fetched(version: 2))
        let during = flags.details(.newCheckout, context: outsider)
        #expect(during.value == before.value && during.variant == before.variant)
        flags.activate()
        #expect(flags.details(.newCheckout, context: EvaluationContext(attributes: ["country": "DE"])).value == true)
        #expect(seen.withLock { $0 } == [1, 2])
        #expect(!flags.activate())
    }

    @Test func lastKnownGoodSurvivesAFailedFetchAndARestartOffline() async throws {
        let harness = try await FlagHarness()
        try await harness.put(checkoutDefinition())
        let flags = client(harness.baseURL)
        await flags.start()
        flags.activate()
        await harness.server.shutdown()
        guard case .failed = await flags.fetch(force: true) else {
            Issue.record("a stopped server must be a failed fetch")
            return
        }
        #expect(flags.details(.newCheckout, context: french).value == true)

        let restarted = client(harness.baseURL)
        guard case .failed = await restarted.start() else {
            Issue.record("the restart is offline")
            return
        }
        let details = restarted.details(.newCheckout, context: EvaluationContext(attributes: ["country": "DE"]))
        #expect(details.value == false)
        #expect(details.reason == .cached)
        #expect(restarted.details(.newCheckout, context: french).value == true)
    }

    @Test func aFetchNotActivatedBecomesActiveAtTheNextLaunch() async throws {
        let harness = try await FlagHarness()
        defer { harness.stop() }
        try await harness.put(checkoutDefinition(value: true))
        let flags = client(harness.baseURL)
        await flags.start()
        #expect(flags.activeSnapshot == nil)
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let relaunched = client(down.url)
        await relaunched.start()
        #expect(relaunched.activeSnapshot?.version == 1)
        #expect(relaunched.value(.newCheckout) == true)
    }

    @Test func killSwitchAppliesAtOnceAndPersistsOffline() async throws {
        let harness = try await FlagHarness()
        try await harness.put(checkoutDefinition())
        let flags = client(harness.baseURL)
        await flags.start()
        flags.activate()
        #expect(flags.details(.newCheckout, context: french).value == true)
        let killed = try await harness.client.send(
            "POST", "\(harness.baseURL)/v1/flags/production/definitions/new-checkout/kill", headers: FlagHarness.admin)
        #expect(killed.status == 200)
        #expect(await flags.fetch(force: true) == .fetched(version: 2))
        // Not activated yet, and still off: a kill does not wait for a safe point.
        let details = flags.details(.newCheckout, context: french)
        #expect(details.value == false && details.reason == .disabled)
        await harness.server.shutdown()

        let restarted = client(harness.baseURL)
        await restarted.start()
        let offline = restarted.details(.newCheckout, context: french)
        #expect(offline.value == false && offline.reason == .disabled)
    }

    @Test func unchangedDefinitionsAnswer304() async throws {
        let harness = try await FlagHarness()
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        let flags = client(harness.baseURL)
        #expect(await flags.start() == .fetched(version: 1))
        #expect(await flags.fetch(force: true) == .notModified)
        #expect(await flags.fetch() == .throttled)
        flags.activate()
        #expect(flags.activeSnapshot?.version == 1)
    }

    @Test func malformedDefinitionsFromTheServerAreIgnoredAndTheLastKnownGoodKept() async throws {
        let body = Mutex<String>(
            #"{"environment":"production","version":1,"flags":[{"key":"new-checkout","type":"bool","value":true}]}"#)
        var router = Router()
        router.add("GET", "/v1/flags/{envKey}") { _ in
            HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: Array(body.withLock { $0 }.utf8))
        }
        var http = HTTPServerConfiguration()
        http.port = 0
        let server = HTTPServer(configuration: http, router: router)
        try server.start()
        defer { inBackground { server.stop() } }
        let clock = ManualClock()
        let flags = client(server.baseURL, clock: clock)
        #expect(await flags.start() == .fetched(version: 1))
        flags.activate()
        #expect(flags.value(.newCheckout) == true)
        for malformed in [
            #"{"version":2,"flags":[{"key":"new-checkout","type":"bool","value":"yes"}]}"#,
            #"{"version":3,"flags":[{"key":"new-checkout","type":"bool","value":true,"rules":[{"id":"r","value":true,"conditions":[{"attribute":"a","operator":"like","values":[1]}]}]}]}"#,
            #"{"version":4,"flags":["#,
        ] {
            body.withLock { $0 = malformed }
            clock.advance(by: .seconds(1))  // past the previous rejection's backoff
            guard case .rejected = await flags.fetch(force: true) else {
                Issue.record("\(malformed) must be rejected")
                continue
            }
            #expect(flags.pendingSnapshot == nil)
            #expect(!flags.activate())
            #expect(flags.value(.newCheckout) == true)
        }
    }

    @Test func definitionsPastTheStalenessLimitSayStale() async throws {
        let harness = try await FlagHarness()
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        let clock = ManualClock()
        let flags = client(harness.baseURL, clock: clock)
        await flags.start()
        flags.activate()
        let outsider = EvaluationContext(attributes: ["country": "DE"])
        #expect(flags.details(.newCheckout, context: outsider).reason == .static)
        clock.advance(by: .seconds(8 * 86_400))
        #expect(flags.details(.newCheckout, context: outsider).reason == .stale)
        #expect(await flags.fetch() == .notModified)
        #expect(flags.details(.newCheckout, context: outsider).reason == .static)
    }

    @Test func overridesTypesAndErrors() async throws {
        let harness = try await FlagHarness()
        defer { harness.stop() }
        try await harness.put(checkoutDefinition())
        try await harness.put(["key": "greeting", "type": "string", "value": "bonjour"])
        try await harness.put(["key": "page-size", "type": "int", "value": 40])
        try await harness.put(["key": "ratio", "type": "double", "value": 0.25])
        try await harness.put(["key": "theme", "type": "json", "value": ["accent": "teal"]])
        let flags = client(harness.baseURL)
        await flags.start()
        flags.activate()
        #expect(flags.value(Flag("greeting", default: "hello")) == "bonjour")
        #expect(flags.value(Flag("page-size", default: 20)) == 40)
        #expect(flags.value(Flag("ratio", default: 1.0)) == 0.25)
        #expect(flags.value(Flag<JSONValue>("theme", default: [:]))["accent"] == "teal")

        let mismatch = flags.details(Flag("new-checkout", default: 7), context: french)
        #expect(mismatch.value == 7 && mismatch.reason == .error && mismatch.errorCode == .typeMismatch)
        let missing = flags.details(Flag("nope", default: true), context: french)
        #expect(missing.value == true && missing.reason == .error && missing.errorCode == .flagNotFound)

        flags.override(.newCheckout, with: false)
        let overridden = flags.details(.newCheckout, context: french)
        #expect(overridden.value == false && overridden.reason == .static && overridden.variant == "override")
        flags.override(.newCheckout, with: nil)
        #expect(flags.details(.newCheckout, context: french).value == true)
        let provider: any FlagProvider = flags
        #expect(provider.resolveBooleanEvaluation(key: "new-checkout", defaultValue: false, context: french).value)
    }
}
