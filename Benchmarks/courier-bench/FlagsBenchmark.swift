import CourierCore
import CourierHTTP
import FeatureFlags
import FlagRules
import FlagServer
import Foundation

/// `courier-bench flags`: evaluations per second of a flag with ten rules and a rollout beside a
/// bare dictionary lookup, and fetch-to-activate latency on loopback beside a bare GET.
struct FlagsBenchmark {
    let runs: Int

    /// Nine rules on `country` that miss, then a 50 % Unleash rollout: the longest common path.
    static let definition: JSONValue = {
        var rules: [JSONValue] = (0..<9).map { index in
            [
                "id": .string("rule-\(index)"),
                "conditions": [["attribute": "country", "operator": "in", "values": [.string("C\(index)"), "ZZ"]]],
                "value": true,
            ]
        }
        rules.append(["id": "ramp", "rollout": ["percentage": 50, "algorithm": "unleash"], "value": true])
        return ["key": "bench-flag", "type": "bool", "value": false, "rules": .array(rules)]
    }()

    func run() throws {
        print("== flags: a flag with 10 rules and a rollout, median of \(runs) runs ==")
        try evaluations()
        try fetchToActivate()
    }

    private func evaluations() throws {
        let document = try FlagDocument.parse(["environment": "bench", "version": 1, "flags": [Self.definition]])
        // The definitions come from the last-known-good cache; the fetch fails (nothing listens).
        let store = InMemoryFlagCacheStore()
        store.save(
            FlagCache(
                active: .init(
                    document: document.json, etag: nil, fetchedAtMilliseconds: SystemClock().nowMilliseconds)))
        let flags = FeatureFlags(
            configuration: FeatureFlagsConfiguration(
                serverURL: "http://127.0.0.1:1", environmentKey: "bench", cacheStore: store))
        _ = try runBlocking { await flags.start() }
        let flag = Flag("bench-flag", default: false)
        let contexts = (0..<1024).map {
            EvaluationContext(targetingKey: "user-\($0)", attributes: ["country": "FR", "plan": "pro"])
        }
        let dictionary: [String: JSONValue] = ["bench-flag": true, "other": false, "country": "FR"]
        let keys = (0..<1024).map { $0 % 3 == 0 ? "bench-flag" : ($0 % 3 == 1 ? "other" : "country") }
        let batch = 1024
        var resolver: [Double] = []
        var bare: [Double] = []
        var lookups: [Double] = []
        var p50: [Double] = []
        var sink = 0
        for _ in 0..<runs {
            var batchNanos: [Double] = []
            let resolverRate = rate(batches: 400, batch: batch) { i in
                let start = DispatchTime.now().uptimeNanoseconds
                for j in 0..<batch where flags.details(flag, context: contexts[(i &+ j) & 1023]).value { sink &+= 1 }
                batchNanos.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(batch))
            }
            resolver.append(resolverRate)
            p50.append(median(batchNanos))
            let rule = document.flags["bench-flag"]
            bare.append(
                rate(batches: 400, batch: batch) { i in
                    guard let rule else { return }
                    for j in 0..<batch
                    where RuleEvaluator.evaluate(rule, context: contexts[(i &+ j) & 1023]).value == true {
                        sink &+= 1
                    }
                })
            lookups.append(
                rate(batches: 400, batch: batch) { i in
                    for j in 0..<batch where dictionary[keys[(i &+ j) & 1023]] != nil { sink &+= 1 }
                })
        }
        print(line("FeatureFlags.details evals/s", median(resolver), "/s", median(lookups), "dictionary lookup"))
        print(line("RuleEvaluator evals/s", median(bare), "/s", median(lookups), "dictionary lookup"))
        print(
            String(format: "FeatureFlags.details p50            %8.0f ns per evaluation (goal ≤ 1000 ns)", median(p50)))
        if sink == 42 { print("") }
    }

    private func rate(batches: Int, batch: Int, _ body: (Int) -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for i in 0..<batches { body(i &* 7) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(batches * batch) / seconds
    }

    private func fetchToActivate() throws {
        var configuration = FlagServerConfiguration()
        configuration.adminToken = "bench-admin-token-0123456789"
        let service = FlagService(configuration: configuration, store: try SQLiteFlagStore(path: ":memory:"))
        var router = Router()
        service.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        let server = HTTPServer(configuration: http, router: router)
        try server.start()
        defer { server.stop() }
        let url = "\(server.baseURL)/v1/flags/bench"
        let admin = ["Authorization": "Bearer bench-admin-token-0123456789"]
        let client = HTTPClient(timeout: .seconds(10))
        var clientConfiguration = FeatureFlagsConfiguration(
            serverURL: server.baseURL, environmentKey: "bench", cacheStore: InMemoryFlagCacheStore())
        clientConfiguration.minimumFetchInterval = .zero
        let flags = FeatureFlags(configuration: clientConfiguration)
        var activate: [Double] = []
        var bareGet: [Double] = []
        for _ in 0..<runs {
            let (ours, peer) = try runBlocking { () -> (Double, Double) in
                var ours: [Double] = []
                var peer: [Double] = []
                for round in 0..<40 {
                    var definition = Self.definition
                    if case .object(var object) = definition {
                        object["value"] = .bool(round % 2 == 0)
                        definition = .object(object)
                    }
                    _ = try await client.sendJSON("PUT", url + "/definitions/bench-flag", definition, headers: admin)
                    let start = DispatchTime.now().uptimeNanoseconds
                    guard case .fetched = await flags.fetch(force: true), flags.activate() else {
                        throw BenchError("the flag fetch did not bring new definitions")
                    }
                    ours.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
                    let bareStart = DispatchTime.now().uptimeNanoseconds
                    _ = try await client.send("GET", url)
                    peer.append(Double(DispatchTime.now().uptimeNanoseconds - bareStart) / 1e3)
                }
                return (median(ours), median(peer))
            }
            activate.append(ours)
            bareGet.append(peer)
        }
        print(line("fetch → activate µs (p50)", median(activate), "µs", median(bareGet), "bare GET of the same URL"))
    }
}
