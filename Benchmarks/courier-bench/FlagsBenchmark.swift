import CBareHTTPPeer
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
        try regexEngines()
        try fetchToActivate()
    }

    /// Patterns that flag rules use, each with an attribute that matches and one that does not.
    static let everydayPatterns: [(pattern: String, inputs: [String])] = [
        (#"^[a-z0-9._%+-]+@example\.com$"#, ["ana.lopez@example.com", "ana.lopez@example.org"]),
        (#"@(example|courier)\.(com|org)$"#, ["ops@courier.org", "ops@courier.net"]),
        (#"^(2\.[3-9]|[3-9]\.)\d*"#, ["2.4.1", "1.9.0"]),
        (#"(?i)^(fr|de|it)-"#, ["FR-paris", "es-madrid"]),
    ]

    /// RE2 (what `regex` conditions run on) beside NSRegularExpression (what they ran on before)
    /// on the same patterns: everyday ones, then `(a+)+$` against `aaa…!`, which backtracks
    /// exponentially in NSRegularExpression (so it gets 20 characters, RE2 the full 1,024).
    private func regexEngines() throws {
        let compiled = try Self.everydayPatterns.map { try CompiledPattern($0.pattern) }
        let foundation = try Self.everydayPatterns.map { try NSRegularExpression(pattern: $0.pattern) }
        let inputs = Self.everydayPatterns.map(\.inputs)
        var ours: [Double] = []
        var peer: [Double] = []
        var sink = 0
        for _ in 0..<runs {
            ours.append(
                rate(batches: 200, batch: 1024) { i in
                    for j in 0..<1024 {
                        let k = (i &+ j) & 3
                        if compiled[k].matches(inputs[k][j & 1]) { sink &+= 1 }
                    }
                })
            peer.append(
                rate(batches: 200, batch: 1024) { i in
                    for j in 0..<1024 {
                        let k = (i &+ j) & 3
                        let text = inputs[k][j & 1]
                        if foundation[k].firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                            sink &+= 1
                        }
                    }
                })
        }
        print(line("regex evals/s (RE2)", median(ours), "/s", median(peer), "NSRegularExpression"))
        let attack = try CompiledPattern("(a+)+$")
        let attackFoundation = try NSRegularExpression(pattern: "(a+)+$")
        let long = String(repeating: "a", count: Condition.maximumRegexInputLength - 1) + "!"
        let short = String(repeating: "a", count: 19) + "!"
        var attackOurs: [Double] = []
        var attackPeer: [Double] = []
        for _ in 0..<runs {
            var start = DispatchTime.now().uptimeNanoseconds
            if attack.matches(long) { sink &+= 1 }
            attackOurs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
            start = DispatchTime.now().uptimeNanoseconds
            if attackFoundation.firstMatch(in: short, range: NSRange(short.startIndex..., in: short)) != nil {
                sink &+= 1
            }
            attackPeer.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
        }
        print(
            line(
                "(a+)+$ µs: RE2 1,024 chars", median(attackOurs), "µs", median(attackPeer),
                "NSRegularExpression, 20 chars"))
        if sink == 42 { print("") }
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
        try pollDefinitions(url)
    }

    /// What clients polling for new definitions cost the server: wrk (32 connections) asking with
    /// the current `ETag`, every answer a 304 from the cached document, beside the bare C server's
    /// small GET in the same minute.
    private func pollDefinitions(_ url: String) throws {
        let etag = try runBlocking { () -> String in
            let response = try await HTTPClient(timeout: .seconds(10)).send("GET", url)
            guard let etag = response.header("etag") else { throw BenchError("the definitions had no ETag") }
            return etag
        }
        let wrk = Wrk(connections: 32, seconds: 5)
        var polls: [Double] = [], bare: [Double] = []
        for _ in 0..<runs {
            let poll = try wrk.run(url, script: nil, path: "", headers: ["If-None-Match: \(etag)"])
            let port = bare_http_peer_start(0)
            guard port > 0 else { throw BenchError("the bare libwebsockets server did not start") }
            defer { bare_http_peer_stop() }
            let peer = try wrk.run("http://127.0.0.1:\(port)", script: nil, path: "/small")
            // wrk counts any answer other than 2xx or 3xx: none may come.
            guard poll.requests > 0, poll.errors == 0, peer.errors == 0 else {
                throw BenchError("\(poll.errors) polls were answered with an error")
            }
            polls.append(poll.requestsPerSecond)
            bare.append(peer.requestsPerSecond)
        }
        print(line("definitions polled (304)", median(polls), "req/s", median(bare), "bare lws in C, small GET"))
    }
}
