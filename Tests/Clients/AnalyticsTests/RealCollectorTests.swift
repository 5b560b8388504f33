import Analytics
import AnalyticsCollector
import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Synchronization
import Testing

/// The SDK against the real collector on 127.0.0.1 (an ephemeral port), over real HTTP.
@Suite(.timeLimit(.minutes(3)))
struct RealCollectorTests {
    static let writeKey = "sdk-e2e-key"
    static let adminToken = "sdk-e2e-admin"

    final class Collector_: Sendable {
        let collector: Collector
        let server: HTTPServer
        let client = HTTPClient(timeout: .seconds(30))

        init() throws {
            var configuration = CollectorConfiguration()
            configuration.adminToken = RealCollectorTests.adminToken
            collector = Collector(configuration: configuration, store: try SQLiteEventStore(path: ":memory:"))
            try collector.register(writeKeys: [RealCollectorTests.writeKey])
            var router = Router()
            collector.mount(on: &router)
            var http = HTTPServerConfiguration()
            http.port = 0
            server = HTTPServer(configuration: http, router: router)
            try server.start()
        }

        /// Stops the server, then the collector, on a thread of their own: the test does not wait.
        func stop() {
            inBackground { [server, collector] in
                server.stop()
                collector.shutdown()
            }
        }

        func events() async throws -> [JSONValue] {
            var all: [JSONValue] = []
            var after = "0"
            while true {
                let url =
                    server.baseURL + "/v1/events?writeKey=\(RealCollectorTests.writeKey)&after=\(after)&limit=1000"
                let page = try await client.send(
                    "GET", url, headers: ["Authorization": "Bearer \(RealCollectorTests.adminToken)"])
                all += page.json?["events"]?.arrayValue ?? []
                guard let next = page.json?["nextCursor"]?.stringValue else { return all }
                after = next
            }
        }

        var duplicates: Int {
            let text = collector.metricsText()
            let line = text.split(separator: "\n").first { $0.hasPrefix("courier_collector_events_duplicate_total ") }
            return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
        }
    }

    static func storage() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sdk-e2e-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// - Parameter breaking: names of events whose name a plugin empties, so that the collector
    ///   refuses them (a nameless track is invalid).
    func sdk(
        _ collector: Collector_, storage: URL, logs: LogCollector? = nil, breaking: Set<String> = []
    ) -> Analytics {
        var configuration = AnalyticsConfiguration(writeKey: Self.writeKey, host: collector.server.baseURL)
        configuration.storageDirectory = storage
        configuration.defaultConsent = .granted
        if let logs { configuration.logger = { logs.append($0) } }
        if !breaking.isEmpty {
            configuration.plugins = [
                AnalyticsPlugin(name: "breaks some") { event in
                    var e = event
                    if let name = e.name, breaking.contains(name) { e.name = "" }
                    return e
                }
            ]
        }
        return Analytics(configuration: configuration)
    }

    @Test func eventsArriveExactlyOnceWithTheirFields() async throws {
        let collector = try Collector_()
        defer { collector.stop() }
        let analytics = sdk(collector, storage: try Self.storage())
        analytics.identify(userId: "e2e-user", traits: ["plan": "team"])
        for i in 0..<500 { analytics.track("E2E", properties: ["seq": .int(Int64(i)), "price": 19.99]) }
        let result = await analytics.flushed()
        #expect(result.remaining == 0)
        let events = try await collector.events()
        let tracks = events.filter { $0["type"] == "track" }
        // Several batches are in flight at once, so the collector may store them in either order
        // (docs/analytics-sdk.md, "Order"): each event once, in order inside its batch.
        #expect(tracks.compactMap { $0["properties"]?["seq"]?.intValue }.sorted() == (0..<500).map(Int64.init))
        #expect(tracks.allSatisfy { $0["userId"] == "e2e-user" && $0["properties"]?["price"] == 19.99 })
        #expect(tracks.allSatisfy { $0["context"]?["library"]?["name"] == "courier-analytics-swift" })
        #expect(events.first { $0["type"] == "identify" }?["traits"] == ["plan": "team"])
        #expect(analytics.stats.sent == 501)
    }

    @Test func aliasArrivesWithItsPreviousId() async throws {
        let collector = try Collector_()
        defer { collector.stop() }
        let analytics = sdk(collector, storage: try Self.storage())
        analytics.track("Before")
        analytics.alias("signed-up-user")
        analytics.track("After")
        let result = await analytics.flushed()
        #expect(result.remaining == 0)
        let events = try await collector.events()
        #expect(events.count == 3)
        let alias = try #require(events.first { $0["type"] == "alias" })
        #expect(alias["previousId"] != nil)
        #expect(alias["previousId"] == events.first { $0["event"] == "Before" }?["anonymousId"])
        #expect(alias["userId"] == "signed-up-user")
        #expect(events.first { $0["event"] == "After" }?["userId"] == "signed-up-user")
        #expect(analytics.stats.dropped(.poison) == 0)
    }

    @Test func oneInvalidEventCostsOnlyItself() async throws {
        let collector = try Collector_()
        defer { collector.stop() }
        let analytics = sdk(collector, storage: try Self.storage(), breaking: ["Broken"])
        for i in 0..<20 { analytics.track(i == 13 ? "Broken" : "Fine", properties: ["seq": .int(Int64(i))]) }
        let result = await analytics.flushed()
        #expect(result.remaining == 0)
        let seqs = try await collector.events().compactMap { $0["properties"]?["seq"]?.intValue }
        #expect(seqs == (0..<20).filter { $0 != 13 }.map(Int64.init))
        // The collector stores the others and lists it under `rejected` (200); a collector that
        // refuses the whole body (400) makes the SDK bisect down to it: the same single event.
        let stats = analytics.stats
        #expect(stats.dropped(.poison) + stats.dropped(.rejected) == 1)
        #expect(stats.sent == 19)
    }

    @Test func anEventTheCollectorRefusesAloneIsDroppedNotRetried() async throws {
        let collector = try Collector_()
        defer { collector.stop() }
        let analytics = sdk(collector, storage: try Self.storage(), breaking: ["Broken"])
        analytics.track("Broken")
        let result = await analytics.flushed()
        // The collector stored nothing and answered 400 `batch_rejected` naming the event: the
        // SDK drops it as rejected instead of retrying or reporting it sent.
        #expect(result.remaining == 0)
        #expect(analytics.stats.dropped(.rejected) == 1)
        #expect(analytics.stats.sent == 0)
        #expect(analytics.stats.retries == 0)
        #expect(try await collector.events().isEmpty)
    }

    static var courierExecutable: String? { builtExecutable(named: "courier") }

    /// Every file under `root`, relative to it.
    static func files(under root: URL) -> [String] {
        (FileManager.default.subpaths(atPath: root.path) ?? []).sorted()
    }

    /// Whether every path is `base`, inside it, or one of the folders that lead to it.
    static func only(_ paths: [String], within base: String) -> Bool {
        paths.allSatisfy { $0 == base || $0.hasPrefix(base + "/") || base.hasPrefix($0 + "/") }
    }

    @Test func theCommandLineWritesOnlyInsideItsDataDirectory() async throws {
        let courier = try #require(Self.courierExecutable, "build the courier executable first (swift build)")
        let collector = try Collector_()
        defer { collector.stop() }
        let root = try Self.storage()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        for folder in ["home", "xdg", "work"] {
            try manager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let home = root.appendingPathComponent("home").path
        func run(_ arguments: [String], _ environment: [String: String]) async throws -> ChildProcess.Outcome {
            try await offPool {
                try ChildProcess.run(
                    courier, arguments, environment: environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a },
                    directory: root.appendingPathComponent("work").path)
            }
        }
        let track = ["track", "Confined", "--server", collector.server.baseURL, "--write-key", Self.writeKey]
        // Help reads and writes nothing.
        #expect(try await run(["-h"], ["HOME": home]).status == 0)
        #expect(Self.files(under: root) == ["home", "work", "xdg"])
        // $HOME, not the password database's home; the queue is the only thing written, and
        // Foundation's URL cache and cookie folders are not created.
        let sent = try await run(track, ["HOME": home])
        #expect(sent.status == 0, "\(sent.errorOutput)")
        let underHome = Self.files(under: root).filter { !["home", "work", "xdg"].contains($0) }
        #expect(!underHome.isEmpty)
        #expect(Self.only(underHome, within: "home/.local/share/courier/analytics"), "\(underHome)")
        // $XDG_DATA_HOME wins over $HOME.
        let viaXDG = try await run(track, ["HOME": home, "XDG_DATA_HOME": root.appendingPathComponent("xdg").path])
        #expect(viaXDG.status == 0, "\(viaXDG.errorOutput)")
        let written = Self.files(under: root).filter {
            !underHome.contains($0) && !["home", "work", "xdg"].contains($0)
        }
        #expect(!written.isEmpty)
        #expect(Self.only(written, within: "xdg/courier/analytics"), "\(written)")
        #expect(try await collector.events().filter { $0["event"] == "Confined" }.count == 2)
    }

    @Test func aKilledProcessLosesAtMostItsBufferAndTheRestUploadsExactlyOnce() async throws {
        let courier = try #require(Self.courierExecutable, "build the courier executable first (swift build)")
        let collector = try Collector_()
        defer { collector.stop() }
        let storage = try Self.storage()
        let baseURL = collector.server.baseURL
        // A child process tracks in a loop, uploading as it goes, and is SIGKILLed mid-stream.
        // It waits for each 10,000 calls to be uploaded before the next, so however slow its
        // pipeline, it is still tracking (and printing) when the 5,000th event is stored, and
        // none of its calls is refused: what it lost is only the tail.
        let report: (tracked: Int, stored: Int) = await runOffPool {
            guard
                let process = try? ChildProcess(
                    courier,
                    [
                        "track", "Killed", "--count", "1000000", "--progress", "250", "--server", baseURL,
                        "--write-key", Self.writeKey, "--data-dir", storage.path,
                    ], output: .pipe, errorOutput: .discard)
            else { return (0, 0) }
            let output = process.output!
            var last = (tracked: 0, stored: 0)
            var pending = ""
            while last.stored < 5_000 {
                let data = output.availableData
                if data.isEmpty { break }
                pending += String(decoding: data, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = pending[..<newline]
                    pending = String(pending[pending.index(after: newline)...])
                    let fields = line.split(separator: " ").map { $0.split(separator: "=") }
                    if fields.count == 2, let t = Int(fields[0][1]), let s = Int(fields[1][1]) { last = (t, s) }
                }
            }
            process.signal(SIGKILL)
            process.wait()
            return last
        }
        #expect(report.stored >= 5_000)

        // The next launch opens the queue cleanly and sends what was left, without a new event.
        let logs = LogCollector()
        let relaunched = sdk(collector, storage: storage, logs: logs)
        let result = await relaunched.flushed()
        #expect(result.remaining == 0)
        #expect(relaunched.stats.tracked == 0)
        #expect(!logs.all.contains { $0.contains("damaged") })

        let seqs = try await collector.events().compactMap { $0["properties"]?["seq"]?.intValue }
        // Everything the child had reported as stored survived the kill…
        #expect(seqs.count >= report.stored)
        // …arrived once each, with no hole: what was lost is only the unwritten tail (the write
        // buffer and calls the pipeline had not reached). Batches in flight together may be stored
        // in either order.
        #expect(seqs.sorted() == (0..<Int64(seqs.count)).map { $0 })
        #expect(seqs.count <= report.tracked + 250)
        // At most the batches that were in flight at the kill (4 of at most 100 events) were sent
        // again, and the collector's dedupe dropped them.
        #expect(collector.duplicates <= 4 * 100)
    }
}
