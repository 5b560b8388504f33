import Analytics
import AnalyticsCollector
import CourierCore
import CourierHTTP
import Foundation
import Synchronization

/// The analytics SDK: the cost of `track` on the caller's thread beside a bare actor hop of the
/// same payload, end-to-end delivery to the real collector, queue write rate beside SQLite
/// inserting the same rows, and memory with the network down.
struct SDKBenchmark {
    let runs: Int
    var uploadsInFlight = 4

    /// A transport that is always offline (the network is down).
    struct Offline: AnalyticsTransport {
        func send(_ request: TransportRequest) async -> TransportResult { .failure("offline") }
    }

    /// The ceiling for `track`: hopping the same payload to an actor.
    actor Sink {
        var count = 0
        func take(_ name: String, _ properties: [String: JSONValue]) { count += properties.count }
    }

    static let properties: [String: JSONValue] = [
        "orderId": "o-1234", "revenue": 19.99, "currency": "EUR", "items": 3, "coupon": nil, "plan": "pro",
        "trial": false, "source": "push", "campaign": "winter", "step": 4,
    ]

    func run() throws {
        print("== sdk: 10-property track events, median of \(runs) runs ==")
        var trackP50: [Double] = [], trackP99: [Double] = [], hopP50: [Double] = [], hopP99: [Double] = []
        var queueRates: [Double] = [], sqliteRates: [Double] = [], e2e: [Double] = []
        for _ in 0..<runs {
            let (t50, t99) = try trackCost()
            let (h50, h99) = hopCost()
            trackP50.append(t50); trackP99.append(t99); hopP50.append(h50); hopP99.append(h99)
            let (queue, sqlite) = try queueRate()
            queueRates.append(queue); sqliteRates.append(sqlite)
            e2e.append(try endToEnd())
        }
        print(
            line("track p50 on caller (ns)", median(trackP50), "ns", median(hopP50), "bare actor hop p50 (goal ≤ 2×)"))
        print(line("track p99 on caller (ns)", median(trackP99), "ns", median(hopP99), "bare actor hop p99"))
        print(
            line(
                "queue writes (events/s)", median(queueRates), "ev/s", median(sqliteRates), "SQLite 16-row txns, NORMAL"
            ))
        print(line("end to end (events/s)", median(e2e), "ev/s", 60_000, "goal"))
        printSplit()
        let commit = try commitCeiling()
        print(line("end to end (events/s)", median(e2e), "ev/s", commit, "one durable 500-row commit at a time"))
        try memory()
    }

    /// Only the queue-write figure (for profiling).
    func queueOnly() throws {
        let (queue, sqlite) = try queueRate()
        print(line("queue writes (events/s)", queue, "ev/s", sqlite, "SQLite 16-row txns, NORMAL"))
    }

    /// Only the end-to-end figure.
    func endToEndOnly() throws {
        let e2e = median(try (0..<runs).map { _ in try endToEnd() })
        print(line("end to end (events/s)", e2e, "ev/s", 60_000, "goal"))
        printSplit()
        print(line("end to end (events/s)", e2e, "ev/s", try commitCeiling(), "one durable 500-row commit at a time"))
    }

    /// Events each end-to-end run sends.
    static let endToEndEvents = 100_000

    /// The last end-to-end run's CPU: the SDK's and the collector's seconds, and the run's.
    private let lastSplit = SplitBox()

    /// Holds the last split (the benchmark itself is a value).
    final class SplitBox: Sendable {
        private let split = Mutex<(sdk: Double, collector: Double, wall: Double)>((0, 0, 0))
        func withLock<T>(_ body: (inout (sdk: Double, collector: Double, wall: Double)) -> T) -> T {
            split.withLock { body(&$0) }
        }
    }

    /// How the last end-to-end run's CPU split between the SDK and the collector (one process,
    /// 2 shared cores).
    private func printSplit() {
        let split = lastSplit.withLock { $0 }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let perEvent = 1e6 / Double(Self.endToEndEvents)
        print(
            String(
                format:
                    "  last run's CPU: SDK %.2f s (%.1f µs/event), collector %.2f s (%.1f µs/event), "
                    + "%.2f s of %.0f cores' %.2f s (%.0f %%)",
                split.sdk, split.sdk * perEvent, split.collector, split.collector * perEvent,
                split.sdk + split.collector,
                cores, split.wall * cores, (split.sdk + split.collector) / max(0.001, split.wall * cores) * 100))
    }

    private func storage() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-sdk-\(Identifier.uuid())")
    }

    private func percentiles(_ samples: [UInt64]) -> (Double, Double) {
        let sorted = samples.sorted()
        return (Double(sorted[sorted.count / 2]), Double(sorted[sorted.count * 99 / 100]))
    }

    private func trackCost() throws -> (Double, Double) {
        var configuration = AnalyticsConfiguration(writeKey: "bench", host: "http://127.0.0.1:9")
        configuration.storageDirectory = storage()
        configuration.defaultConsent = .granted
        configuration.transport = Offline()
        configuration.fetchesRemoteSettings = false
        configuration.maximumQueueBytes = 64 << 20
        let analytics = Analytics(configuration: configuration)
        var samples = [UInt64](repeating: 0, count: 50_000)
        for i in 0..<samples.count {
            let start = DispatchTime.now().uptimeNanoseconds
            analytics.track("Order Completed", properties: Self.properties)
            samples[i] = DispatchTime.now().uptimeNanoseconds - start
        }
        _ = analytics.drain(timeout: .seconds(60))
        try? FileManager.default.removeItem(at: configuration.storageDirectory!)
        return percentiles(samples)
    }

    private func hopCost() -> (Double, Double) {
        let sink = Sink()
        var samples = [UInt64](repeating: 0, count: 50_000)
        let countdown = Countdown(samples.count)
        for i in 0..<samples.count {
            let start = DispatchTime.now().uptimeNanoseconds
            Task {
                await sink.take("Order Completed", Self.properties)
                countdown.tick()
            }
            samples[i] = DispatchTime.now().uptimeNanoseconds - start
        }
        countdown.done.wait()
        return percentiles(samples)
    }

    /// Signals `done` when `tick()` has been called `count` times.
    final class Countdown: Sendable {
        let done = DispatchSemaphore(value: 0)
        private let remaining: Atomic<Int>
        init(_ count: Int) { remaining = Atomic(count) }
        func tick() { if remaining.subtract(1, ordering: .relaxed).newValue == 0 { done.signal() } }
    }

    private func queueRate() throws -> (Double, Double) {
        let count = 100_000
        var configuration = AnalyticsConfiguration(writeKey: "bench", host: "http://127.0.0.1:9")
        let directory = storage()
        configuration.storageDirectory = directory
        configuration.defaultConsent = .granted
        configuration.transport = Offline()
        configuration.fetchesRemoteSettings = false
        configuration.maximumQueueBytes = 1 << 30
        configuration.maximumPendingCalls = count
        let analytics = Analytics(configuration: configuration)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<count { analytics.track("Order Completed", properties: Self.properties) }
        while analytics.stats.stored < count { usleep(1000) }
        let rate = Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        try? FileManager.default.removeItem(at: directory)

        // The ceiling: the same encoded events inserted by SQLite directly, 16 per transaction.
        let payload = JSONWriter.encode(
            AnalyticsEvent(
                messageId: Identifier.uuid(), kind: .track, name: "Order Completed", properties: Self.properties,
                timestamp: 0, userId: nil, anonymousId: Identifier.uuid(), groupId: nil, previousId: nil,
                context: ["library": ["name": "courier-analytics-swift"]]
            ).json)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ceiling-\(Identifier.uuid()).sqlite")
            .path
        var options = Database.Options()
        options.synchronous = "NORMAL"
        let db = try Database(path: path, options: options)
        try db.execute(
            "CREATE TABLE events(id INTEGER PRIMARY KEY, created_at INTEGER NOT NULL, bytes INTEGER NOT NULL, payload BLOB NOT NULL)"
        )
        let insert = try db.cachedStatement("INSERT INTO events(created_at, bytes, payload) VALUES (?1, ?2, ?3)")
        let ceilingStart = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<(count / 16) {
            try db.transaction {
                for _ in 0..<16 {
                    insert.reset()
                    try insert.bind(Int64(1), at: 1)
                    try insert.bind(Int64(payload.count), at: 2)
                    try insert.bind(bytes: payload, at: 3)
                    try insert.step()
                }
            }
        }
        let ceiling = Double(count / 16 * 16) / (Double(DispatchTime.now().uptimeNanoseconds - ceilingStart) / 1e9)
        try? FileManager.default.removeItem(atPath: path)
        return (rate, ceiling)
    }

    private func endToEnd() throws -> Double {
        let count = Self.endToEndEvents
        let directory = storage()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("collector.sqlite").path)
        let collector = Collector(store: store)
        try collector.register(writeKeys: ["bench"])
        var router = Router()
        collector.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        let serverTime = Mutex<Double>(0)
        if ProcessInfo.processInfo.environment["COURIER_BENCH_VERBOSE"] != nil {
            http.accessLog = { line in
                // `… 200 17 0.42ms id=…`: the field ending in "ms".
                if let ms = line.split(separator: " ").last(where: { $0.hasSuffix("ms") }).flatMap({
                    Double($0.dropLast(2))
                }) {
                    serverTime.withLock { $0 += ms / 1000 }
                }
            }
        }
        let server = HTTPServer(configuration: http, router: router)
        try server.start()
        defer {
            if ProcessInfo.processInfo.environment["COURIER_BENCH_VERBOSE"] != nil {
                print(String(format: "  %.2f s inside the collector's handlers", serverTime.withLock { $0 }))
            }
            server.stop()
            collector.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
        var configuration = AnalyticsConfiguration(writeKey: "bench", host: server.baseURL)
        configuration.storageDirectory = directory.appendingPathComponent("sdk")
        configuration.defaultConsent = .granted
        configuration.fetchesRemoteSettings = false
        configuration.maximumQueueBytes = 1 << 30
        configuration.maximumPendingCalls = count
        configuration.maximumBatchCount = 500
        configuration.maximumUploadsInFlight = uploadsInFlight
        let timing = TimedTransport(URLSessionTransport())
        configuration.transport = timing
        let analytics = Analytics(configuration: configuration)
        let cpuBefore = ThreadCPU.now()
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<count { analytics.track("Order Completed", properties: Self.properties) }
        var queuedAt: UInt64?
        while analytics.stats.sent < count {
            if queuedAt == nil && analytics.stats.stored >= count { queuedAt = DispatchTime.now().uptimeNanoseconds }
            analytics.flush()
            usleep(2000)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // The collector's threads are the engine's (`http-…`) and its committer (`ingest-commit`);
        // the rest is the SDK: the caller's `track` calls, the pipeline actor and the transport.
        let cpu = ThreadCPU.now().since(cpuBefore) { name in
            name.hasPrefix("http-") || name.hasPrefix("ingest-") ? "collector" : "sdk"
        }
        lastSplit.withLock { $0 = (cpu["sdk"] ?? 0, cpu["collector"] ?? 0, seconds) }
        try checkStoredOnce(store, count: count)
        if ProcessInfo.processInfo.environment["COURIER_BENCH_VERBOSE"] != nil {
            print(
                String(
                    format: "  %.2f s total, all queued after %.2f s, %d uploads, %.2f s waiting for answers", seconds,
                    Double((queuedAt ?? start) - start) / 1e9, timing.calls, timing.seconds))
        }
        return Double(count) / seconds
    }

    /// Every acknowledged event is in the collector's store exactly once.
    private func checkStoredOnce(_ store: SQLiteEventStore, count: Int) throws {
        var ids = Set<String>()
        var rows = 0
        var cursor: Int64 = 0
        while true {
            let page = try store.events(writeKey: "bench", after: cursor, limit: 5000)
            rows += page.events.count
            for event in page.events { ids.insert(event.payload["messageId"]?.stringValue ?? "") }
            guard let next = page.nextCursor else { break }
            cursor = next
        }
        guard rows == count, ids.count == count else {
            throw BenchError("\(count) events acknowledged, \(rows) stored, \(ids.count) distinct")
        }
    }

    /// Counts the time spent waiting for the collector.
    final class TimedTransport: AnalyticsTransport {
        let base: any AnalyticsTransport
        private let totals = Mutex<(calls: Int, nanos: UInt64)>((0, 0))
        init(_ base: any AnalyticsTransport) { self.base = base }
        var calls: Int { totals.withLock { $0.calls } }
        var seconds: Double { Double(totals.withLock { $0.nanos }) / 1e9 }
        func send(_ request: TransportRequest) async -> TransportResult {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = await base.send(request)
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            totals.withLock {
                $0.calls += 1; $0.nanos += elapsed
            }
            return result
        }
    }

    /// The most one-upload-at-a-time delivery can reach on this disk: 500-event batches, each
    /// committed durably (`synchronous=FULL`, the collector's setting) before the next is sent,
    /// with nothing else in the way.
    private func commitCeiling() throws -> Double {
        let directory = storage()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("ceiling.sqlite").path)
        let payload = Array(BenchPayload.event(prefix: "c", request: 0, index: 0).utf8)
        let start = DispatchTime.now().uptimeNanoseconds
        var rows = 0
        for round in 0..<40 {
            let batch = (0..<500).map { i in
                PreparedMessage(
                    writeKey: "bench", messageId: "c-\(round)-\(i)", type: "track", receivedAt: 0, payload: payload)
            }
            _ = try store.commit([batch], dedupeCutoff: 0)
            rows += batch.count
        }
        return Double(rows) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Memory with the network down while the queue sits at its cap: RSS must reach a plateau.
    /// - Throws: `MemoryGrowth` when RSS grows by more than `allowedGrowth` after the warm-up
    ///   (the first fifth of the events, long past the point where the queue is full).
    func memory(events: Int = 1_000_000, allowedGrowth: Int = 10 << 20) throws {
        var configuration = AnalyticsConfiguration(writeKey: "bench", host: "http://127.0.0.1:9")
        let directory = storage()
        configuration.storageDirectory = directory
        configuration.defaultConsent = .granted
        configuration.transport = Offline()
        configuration.fetchesRemoteSettings = false
        defer { try? FileManager.default.removeItem(at: directory) }
        let analytics = Analytics(configuration: configuration)
        let baseline = residentBytes()
        let step = max(1, events / 10)
        let warmUp = max(1, events / 5)
        var peak = baseline
        var afterWarmUp = baseline
        var samples: [String] = []
        for i in 1...max(1, events) {
            analytics.track("Order Completed", properties: Self.properties)
            // An app tracks in bursts, not a million in one loop: let the pipeline catch up every
            // 10,000 calls, so the figure is the SDK's steady state rather than a call backlog
            // (which `maximumPendingCalls` bounds on its own).
            if i % 10_000 == 0 || i == events {
                while analytics.stats.stored + analytics.stats.dropped(.overflow) < i - 100 { usleep(1000) }
            }
            if i % step == 0 || i == warmUp {
                let rss = residentBytes()
                peak = max(peak, rss)
                if i == warmUp { afterWarmUp = rss }
                if i % step == 0 { samples.append("\(i / 1000)k:\(rss >> 20)MiB") }
            }
        }
        let final = residentBytes()
        let stats = analytics.stats
        print(
            "memory, \(events) events with the network down (queue cap \(configuration.maximumQueueBytes >> 20) MiB): "
                + "RSS \(baseline >> 20) MiB before, \(afterWarmUp >> 20) MiB after the warm-up (\(warmUp) events), "
                + "\(final >> 20) MiB at the end, peak \(peak >> 20) MiB; queue \(stats.queueBytes >> 10) KiB, "
                + "\(stats.dropped(.queueFull)) oldest dropped by the cap")
        print("  RSS at " + samples.joined(separator: " "))
        let growth = final - afterWarmUp
        guard growth <= allowedGrowth else {
            throw MemoryGrowth(growth: growth, allowed: allowedGrowth, events: events - warmUp)
        }
    }

    /// RSS kept growing once the SDK should have reached its steady state.
    struct MemoryGrowth: Error, CustomStringConvertible {
        let growth: Int
        let allowed: Int
        let events: Int
        var description: String {
            "FAIL: the SDK's RSS grew by \(growth >> 20) MiB over \(events) events after the warm-up "
                + "(\(growth / max(1, events)) bytes per event); at most \(allowed >> 20) MiB is allowed"
        }
    }

    private func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
    }
}
