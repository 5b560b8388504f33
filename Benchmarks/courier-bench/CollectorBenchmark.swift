import AnalyticsCollector
import CourierCore
import CourierHTTP
import Foundation

/// Durable ingest through the real collector, beside its two ceilings measured in the same run:
/// the HTTP engine answering the same request with a handler that only reads the body, and SQLite
/// inserting the same rows in 100-row transactions with `synchronous=FULL`. With `database`, the
/// same load again on `PostgresEventStore`, beside the SQLite figure and a raw PostgreSQL ceiling.
struct CollectorBenchmark {
    let runs: Int
    let seconds: Int
    /// `postgres://…`: also measure the collector on this database (its collector tables are
    /// dropped before each run).
    var database: String? = nil
    let connections = 32
    /// What one pipelining SDK keeps open.
    let fewConnections = 4

    struct Figures {
        let ingest: Double
        let sink: Double
        let sqlite: Double
    }

    @discardableResult
    func run() throws -> Figures {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-bench-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("batch.lua")
        try BenchPayload.wrkScript.write(to: script, atomically: true, encoding: .utf8)

        var ingest: [Wrk.Result] = [], few: [Wrk.Result] = [], sink: [Wrk.Result] = [], sqlite: [Double] = []
        var postgres: [Wrk.Result] = [], postgresFew: [Wrk.Result] = [], postgresCeiling: [Double] = []
        for run in 0..<runs {
            if let database {
                try PostgresCollectorLeg.reset(database)
                let (_, all, few) = try measure(store: try PostgresEventStore(url: database), script: script.path)
                postgres.append(all)
                postgresFew.append(few)
                postgresCeiling.append(try PostgresCollectorLeg.ceiling(database, seconds: seconds))
            }
            let store = try SQLiteEventStore(path: directory.appendingPathComponent("collector-\(run).sqlite").path)
            let (sinkResult, result, fewResult) = try measure(store: store, script: script.path, withSink: true)
            if let sinkResult { sink.append(sinkResult) }
            ingest.append(result)
            few.append(fewResult)
            sqlite.append(try sqliteCeiling(path: directory.appendingPathComponent("ceiling-\(run).sqlite").path))
        }
        let ingestRate = median(ingest.map { $0.requestsPerSecond }) * Double(BenchPayload.eventsPerBatch)
        let sinkRate = median(sink.map { $0.requestsPerSecond }) * Double(BenchPayload.eventsPerBatch)
        let sqliteRate = median(sqlite)
        let fewRate = median(few.map { $0.requestsPerSecond }) * Double(BenchPayload.eventsPerBatch)
        print(
            "== collector: \(connections) connections, \(BenchPayload.eventsPerBatch)-event batches, \(seconds) s, median of \(runs) runs =="
        )
        print(line("durable ingest (events/s)", ingestRate, "ev/s", sinkRate, "the same server, body read only"))
        print(line("durable ingest (events/s)", ingestRate, "ev/s", sqliteRate, "SQLite 100-row txns, FULL"))
        print(
            line(
                "durable ingest (events/s)", ingestRate, "ev/s", min(sinkRate, sqliteRate),
                "lower ceiling"))
        print(
            line(
                "durable ingest, exact 24 h dedupe", ingestRate, "ev/s", sqliteRate,
                "SQLite plain insert (goal ≥ 0.80×)"))
        print(
            line(
                "durable ingest, \(fewConnections) connections", fewRate, "ev/s", sqliteRate,
                "SQLite plain insert (goal ≥ 0.50×)"))
        if database != nil {
            let postgresRate = median(postgres.map { $0.requestsPerSecond }) * Double(BenchPayload.eventsPerBatch)
            let postgresFewRate = median(postgresFew.map { $0.requestsPerSecond }) * Double(BenchPayload.eventsPerBatch)
            print(
                line(
                    "PostgreSQL ingest, exact dedupe", postgresRate, "ev/s", ingestRate,
                    "the same on SQLite (goal ≥ 0.30×)"))
            print(
                line(
                    "PostgreSQL ingest, exact dedupe", postgresRate, "ev/s", median(postgresCeiling),
                    "raw PostgreSQL, 500-row INSERT … ON CONFLICT"))
            print(
                line(
                    "PostgreSQL ingest, \(fewConnections) connections", postgresFewRate, "ev/s", fewRate,
                    "the same on SQLite"))
        }
        print(
            String(
                format:
                    "ingest latency p50 %.2f ms, p99 %.2f ms (sink p50 %.2f ms, p99 %.2f ms); errors %d; every acknowledged event stored",
                median(ingest.map(\.p50Milliseconds)), median(ingest.map(\.p99Milliseconds)),
                median(sink.map(\.p50Milliseconds)), median(sink.map(\.p99Milliseconds)),
                ingest.map(\.errors).reduce(0, +)))
        return Figures(ingest: ingestRate, sink: sinkRate, sqlite: sqliteRate)
    }

    private func load(server: HTTPServer, script: String, path: String, connections: Int? = nil) throws -> Wrk.Result {
        try Wrk(connections: connections ?? self.connections, seconds: seconds).run(
            server.baseURL, script: script, path: path)
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

    /// Ingest through a collector on `store` with 32 and 4 connections (after, with `withSink`,
    /// the same server answering a route that only reads the body); checks that every
    /// acknowledged event was stored. One client at full speed: rate limits would measure
    /// themselves, not the ingest path.
    private func measure(store: any EventStore, script: String, withSink: Bool = false) throws -> (
        sink: Wrk.Result?, all: Wrk.Result, few: Wrk.Result
    ) {
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
        http.handlerThreads = connections + 4
        let server = HTTPServer(configuration: http, router: router)
        try server.start()
        let sink = withSink ? try load(server: server, script: script, path: "/sink") : nil
        let all = try load(server: server, script: script, path: "/v1/batch")
        let few = try load(server: server, script: script, path: "/v1/batch", connections: fewConnections)
        server.stop()
        collector.shutdown()
        let acknowledged = (all.requests - all.errors + few.requests - few.errors) * BenchPayload.eventsPerBatch
        // Requests still in flight when wrk stops are committed but not counted by wrk.
        let stored = try countEvents(store)
        if stored < acknowledged || stored - acknowledged > (connections + fewConnections) * BenchPayload.eventsPerBatch
        {
            throw BenchError("acknowledged \(acknowledged) events but \(stored) are stored")
        }
        return (sink, all, few)
    }

    private func countEvents(_ store: any EventStore) throws -> Int {
        var count = 0
        var after: Int64 = 0
        while true {
            let page = try store.events(writeKey: "bench", after: after, limit: 1000)
            count += page.events.count
            guard let next = page.nextCursor else { return count }
            after = next
        }
    }
}
