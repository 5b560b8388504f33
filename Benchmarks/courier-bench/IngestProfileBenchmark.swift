import Analytics
import AnalyticsCollector
import CourierCore
import Foundation

/// Where the collector's time per event goes for the SDK's uploads, measured stage by stage with
/// timing counters on the same 500-event gzipped batches the SDK sends: gunzip, parse and
/// validate, prepare (member copying, skew correction), and the durable group commit with the
/// dedupe lookup. The sum is printed beside the time per event that the SDK's end-to-end figure
/// allows for 60,000 events/s.
struct IngestProfileBenchmark {
    let runs: Int
    let batches = 40
    let eventsPerBatch = 500

    func run() throws {
        var stages: [String: [Double]] = [:]
        for _ in 0..<runs {
            for (name, value) in try measure() { stages[name, default: []].append(value) }
        }
        print(
            "== collector per-event cost, SDK-shaped \(eventsPerBatch)-event gzipped batches, median of \(runs) runs =="
        )
        var total = 0.0
        for name in Self.order {
            let value = median(stages[name] ?? [])
            total += value
            print(
                "  " + name.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%7.2f µs/event", value)
            )
        }
        print(line("collector total (µs/event)", total, "µs", 1e6 / 60_000, "one core's share of 60k ev/s"))
    }

    static let order = [
        "gunzip", "parse + validate (IncomingBatch)", "prepare (copy members, skew)",
        "commit: insert + dedupe + fsync (SQLite)",
    ]

    private func measure() throws -> [String: Double] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-bench-profile-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("collector.sqlite").path)
        try store.registerProject(writeKey: "bench")
        let bodies = try (0..<batches).map { _ in try Gzip.compress(body(), level: 1) }
        var nanos: [String: UInt64] = [:]
        func timed<T>(_ name: String, _ work: () throws -> T) rethrows -> T {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try work()
            nanos[name, default: 0] += DispatchTime.now().uptimeNanoseconds - start
            return result
        }
        for compressed in bodies {
            let raw = try timed("gunzip") { try Gzip.decompress(compressed, limit: 1 << 24) }
            let batch = try timed("parse + validate (IncomingBatch)") {
                try IncomingBatch(body: raw, singleType: nil, configuration: CollectorConfiguration())
            }
            let messages = timed("prepare (copy members, skew)") {
                batch.prepare(writeKey: "bench", receivedAt: 1_795_939_200_000)
            }
            let outcome = try timed("commit: insert + dedupe + fsync (SQLite)") {
                try store.commit([messages], dedupeCutoff: 0)
            }
            guard outcome.first?.stored == eventsPerBatch else {
                throw BenchError("stored \(outcome.first?.stored ?? 0) of \(eventsPerBatch)")
            }
        }
        let events = Double(batches * eventsPerBatch)
        return nanos.mapValues { Double($0) / 1000 / events }
    }

    /// A body as the SDK builds it: its encoded events, one after another, and `sentAt`.
    private func body() -> [UInt8] {
        var body = Array("{\"batch\":[".utf8)
        for i in 0..<eventsPerBatch {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body += JSONWriter.encode(
                AnalyticsEvent(
                    messageId: Identifier.uuid(), kind: .track, name: "Order Completed",
                    properties: SDKBenchmark.properties, timestamp: 1_795_939_199_000, userId: nil,
                    anonymousId: "anon-1", groupId: nil, previousId: nil,
                    context: ["library": ["name": "courier-analytics-swift", "version": "1"]]
                ).json)
        }
        body += Array("],\"sentAt\":\"2026-11-30T12:00:00.000Z\"}".utf8)
        return body
    }
}
