import Analytics
import CourierCore
import CourierTesting
import Foundation

/// The SDK end to end against a real `courier-server` process that is killed with SIGKILL in the
/// middle of the run and started again on the same port and data directory. Checks afterwards,
/// from the collector's own database, that every event is stored exactly once.
struct SDKKillBenchmark {
    let events = 100_000
    let killAfter = 30_000
    let uploadsInFlight: Int

    func run() throws {
        guard let server = builtExecutable(named: "courier-server") else {
            throw BenchError("build courier-server beside courier-bench first (swift build -c release)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-bench-kill-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("server").path
        let first = try launch(server, data: data, port: 0)
        var process = first.process
        let port = first.port

        var configuration = AnalyticsConfiguration(writeKey: "bench", host: "http://127.0.0.1:\(port)")
        configuration.storageDirectory = directory.appendingPathComponent("sdk")
        configuration.defaultConsent = .granted
        configuration.fetchesRemoteSettings = false
        configuration.maximumQueueBytes = 1 << 30
        configuration.maximumPendingCalls = events
        configuration.maximumBatchCount = 500
        configuration.maximumUploadsInFlight = uploadsInFlight
        configuration.backoff = Backoff(base: .milliseconds(50), cap: .milliseconds(500))
        let analytics = Analytics(configuration: configuration)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<events { analytics.track("Order Completed", properties: SDKBenchmark.properties) }
        var killed = false
        var sentAtKill = 0
        let deadline = start + 180 * 1_000_000_000
        while analytics.stats.sent < events {
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                throw BenchError("only \(analytics.stats.sent) of \(events) events were acknowledged in 180 s")
            }
            if !killed && analytics.stats.sent >= killAfter {
                process.signal(SIGKILL)
                process.wait()
                sentAtKill = analytics.stats.sent
                killed = true
                process = try launch(server, data: data, port: port).process
            }
            analytics.flush()
            usleep(2000)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        process.terminate()
        process.wait()

        let db = try Database(path: data + "/collector.sqlite")
        let (rows, distinct) =
            try db.query("SELECT count(*), count(DISTINCT message_id) FROM events") { ($0.int(0), $0.int(1)) }.first
            ?? (0, 0)
        print(
            "== sdk end to end with the collector killed (SIGKILL) after \(sentAtKill) acknowledged events and restarted, "
                + "\(uploadsInFlight) uploads in flight ==")
        print(
            String(
                format:
                    "%d events in %.2f s (%.0f events/s with the outage); %d retries; stored %lld rows, %lld distinct",
                events, seconds, Double(events) / seconds, analytics.stats.retries, rows, distinct))
        guard rows == events, distinct == events else {
            throw BenchError("FAIL: \(events) events acknowledged, \(rows) rows stored, \(distinct) distinct")
        }
        print("every acknowledged event stored exactly once")
    }

    /// Starts `courier-server` on `port` (0: any) and returns it with the port it listens on.
    private func launch(_ server: String, data: String, port: Int) throws -> (process: ChildProcess, port: Int) {
        let process = try ChildProcess(
            server,
            [
                "--port", String(port), "--data-dir", data, "--write-key", "bench", "--quiet",
                "--rate-limit-client", "0", "--rate-limit-key", "0",
            ], output: .pipe, errorOutput: .discard)
        var banner = ""
        while !banner.contains("\n"), let chunk = process.output?.availableData, !chunk.isEmpty {
            banner += String(decoding: chunk, as: UTF8.self)
        }
        let digits = banner.components(separatedBy: "127.0.0.1:").dropFirst().first?.prefix { $0.isNumber }
        guard let listening = digits.flatMap({ Int($0) }) else {
            process.terminate()
            process.wait()
            throw BenchError("courier-server did not say where it listens: \(banner)")
        }
        return (process, listening)
    }
}
