import AnalyticsCollector
import CourierCore
import CourierHTTP
import Foundation

/// Durable ingest through the real collector, beside its two ceilings measured in the same run:
/// the HTTP engine answering the same request with a handler that only reads the body, and SQLite
/// inserting the same rows in 100-row transactions with `synchronous=FULL`. With two engines, the
/// collector on the second is also printed beside the collector on the first.
struct CollectorBenchmark {
    let runs: Int
    let seconds: Int
    var engines: [HTTPEngineKind] = [.civetweb]
    let connections = 32

    struct Figures {
        let ingest: Double
        let sink: Double
        let sqlite: Double
    }

    struct LoadResult {
        let requestsPerSecond: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        let errors: Int
        let requests: Int
    }

    func run() throws {
        var measured: [(HTTPEngineKind, Figures)] = []
        for engine in engines { measured.append((engine, try run(engine: engine))) }
        if measured.count == 2 {
            let (first, base) = measured[0], (second, other) = measured[1]
            print("== collector: \(second.rawValue) beside \(first.rawValue), medians above ==")
            print(line("durable ingest, \(second.rawValue)", other.ingest, "ev/s", base.ingest, first.rawValue))
            print(line("body read only, \(second.rawValue)", other.sink, "ev/s", base.sink, first.rawValue))
        }
    }

    private func run(engine: HTTPEngineKind) throws -> Figures {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
            throw BenchError("wrk is not installed (apt-get install wrk, or run scripts/bootstrap)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-bench-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("batch.lua")
        try BenchPayload.wrkScript.write(to: script, atomically: true, encoding: .utf8)

        var ingest: [LoadResult] = [], sink: [LoadResult] = [], sqlite: [Double] = []
        var stored: [Int] = []
        for run in 0..<runs {
            let store = try SQLiteEventStore(path: directory.appendingPathComponent("collector-\(run).sqlite").path)
            // One client at full speed: rate limits would measure themselves, not the ingest path.
            var configuration = CollectorConfiguration()
            configuration.rateLimitPerClient = nil
            configuration.rateLimitPerWriteKey = nil
            let collector = Collector(configuration: configuration, store: store)
            try collector.register(writeKeys: ["bench"])
            var router = Router()
            collector.mount(on: &router)
            router.add("POST", "/sink") { request in
                .json(["success": true, "bytes": .int(Int64(request.body.count))])
            }
            var http = HTTPServerConfiguration()
            http.port = 0
            http.workerThreads = connections + 4
            http.engine = engine
            let server = HTTPServer(configuration: http, router: router, middleware: collector.middleware)
            try server.start()
            sink.append(try load(server: server, script: script.path, path: "/sink"))
            let result = try load(server: server, script: script.path, path: "/v1/batch")
            ingest.append(result)
            server.stop()
            collector.shutdown()
            stored.append(try countEvents(store))
            let acknowledged = (result.requests - result.errors) * BenchPayload.eventsPerBatch
            // Requests still in flight when wrk stops are committed but not counted by wrk.
            let extra = (stored.last ?? 0) - acknowledged
            if extra < 0 || extra > connections * BenchPayload.eventsPerBatch {
                throw BenchError("acknowledged \(acknowledged) events but \(stored.last ?? 0) are stored")
            }
            sqlite.append(try sqliteCeiling(path: directory.appendingPathComponent("ceiling-\(run).sqlite").path))
        }
        let ingestRate = median(ingest.map { $0.requestsPerSecond }) * Double(BenchPayload.eventsPerBatch)
        let sinkRate = median(sink.map { $0.requestsPerSecond }) * Double(BenchPayload.eventsPerBatch)
        let sqliteRate = median(sqlite)
        print(
            "== collector on \(engine.rawValue): \(connections) connections, \(BenchPayload.eventsPerBatch)-event batches, \(seconds) s, median of \(runs) runs =="
        )
        print(line("durable ingest (events/s)", ingestRate, "ev/s", sinkRate, "\(engine.rawValue), body read only"))
        print(line("durable ingest (events/s)", ingestRate, "ev/s", sqliteRate, "SQLite 100-row txns, FULL"))
        print(
            line(
                "durable ingest (events/s)", ingestRate, "ev/s", min(sinkRate, sqliteRate),
                "lower ceiling (goal ≥ 0.50×)"))
        print(
            String(
                format:
                    "ingest latency p50 %.2f ms, p99 %.2f ms (sink p50 %.2f ms, p99 %.2f ms); errors %d; every acknowledged event stored",
                median(ingest.map(\.p50Milliseconds)), median(ingest.map(\.p99Milliseconds)),
                median(sink.map(\.p50Milliseconds)), median(sink.map(\.p99Milliseconds)),
                ingest.map(\.errors).reduce(0, +)))
        return Figures(ingest: ingestRate, sink: sinkRate, sqlite: sqliteRate)
    }

    private func load(server: HTTPServer, script: String, path: String) throws -> LoadResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        process.arguments = [
            "-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "-s", script,
            server.baseURL, "--", path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let rps = Self.number(after: "Requests/sec:", in: text) else {
            throw BenchError("wrk output not understood:\n\(text)")
        }
        let requests = Int(Self.number(before: " requests in", in: text) ?? 0)
        return LoadResult(
            requestsPerSecond: rps,
            p50Milliseconds: Self.latency("50%", in: text), p99Milliseconds: Self.latency("99%", in: text),
            errors: Int(Self.number(after: "Non-2xx or 3xx responses:", in: text) ?? 0), requests: requests)
    }

    private func sqliteCeiling(path: String) throws -> Double {
        let db = try Database(path: path)
        try SQLiteEventStore.createBenchmarkTable(db)
        let payloads = (0..<BenchPayload.eventsPerBatch).map {
            Array(BenchPayload.event(prefix: "s", request: 0, index: $0).utf8)
        }
        let insert = try db.cachedStatement(
            "INSERT INTO events(write_key, message_id, type, received_at, payload) VALUES (?1, ?2, 'track', ?3, ?4)")
        let start = DispatchTime.now().uptimeNanoseconds
        var rows = 0
        while DispatchTime.now().uptimeNanoseconds - start < UInt64(seconds) * 1_000_000_000 / 2 {
            try db.transaction {
                for (i, payload) in payloads.enumerated() {
                    insert.reset()
                    try insert.bind("bench", at: 1)
                    try insert.bind("s-\(rows)-\(i)", at: 2)
                    try insert.bind(Int64(rows), at: 3)
                    try insert.bind(utf8Text: payload, at: 4)
                    try insert.step()
                }
            }
            rows += payloads.count
        }
        return Double(rows) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    private func countEvents(_ store: SQLiteEventStore) throws -> Int {
        var count = 0
        var after: Int64 = 0
        while true {
            let page = try store.events(writeKey: "bench", after: after, limit: 1000)
            count += page.events.count
            guard let next = page.nextCursor else { return count }
            after = next
        }
    }

    private static func number(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " }
        return Double(rest.prefix { $0.isNumber || $0 == "." })
    }

    private static func number(before label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let head = text[..<range.lowerBound]
        return Double(String(head.reversed().prefix { $0.isNumber }.reversed()))
    }

    private static func latency(_ percentile: String, in text: String) -> Double {
        // wrk prints e.g. "     50%    1.23ms" / "99%   12.50ms" / "  1.02s".
        guard let distribution = text.range(of: "Latency Distribution") else { return 0 }
        for row in text[distribution.upperBound...].split(separator: "\n") {
            let fields = row.split(separator: " ")
            guard fields.count == 2, fields[0] == percentile else { continue }
            let value = String(fields[1])
            if value.hasSuffix("us"), let v = Double(value.dropLast(2)) { return v / 1000 }
            if value.hasSuffix("ms"), let v = Double(value.dropLast(2)) { return v }
            if value.hasSuffix("s"), let v = Double(value.dropLast(1)) { return v * 1000 }
        }
        return 0
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
