import AnalyticsCollector
import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Synchronization

/// Durable ingest with one console's live event stream open (`GET /v1/events/stream`, as the
/// console's debugger reads it) beside the same ingest with none, in the same run and on the
/// same server: the stream must cost ingest less than 5 %. The stream asks for no replay
/// (`last=0`), so what it counts is live delivery. Runs alternate the order of the two
/// loads so neither always goes first.
struct ConsoleStreamBenchmark {
    let runs: Int
    let seconds: Int
    let connections = 32
    static let adminToken = "bench-admin-token-0123456789"

    /// What the stream's reader saw during one load.
    final class StreamTally: Sendable {
        let events = Atomic<Int>(0)
        let skips = Atomic<Int>(0)
        let bytes = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
    }

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-bench-console-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("batch.lua")
        try BenchPayload.wrkScript.write(to: script, atomically: true, encoding: .utf8)

        var without: [Double] = [], with: [Double] = [], shown: [Double] = [], skips: [Int] = []
        for run in 0..<runs {
            let store = try SQLiteEventStore(path: directory.appendingPathComponent("collector-\(run).sqlite").path)
            var configuration = CollectorConfiguration()
            configuration.rateLimitPerClient = nil
            configuration.rateLimitPerWriteKey = nil
            configuration.adminToken = Self.adminToken
            let collector = Collector(configuration: configuration, store: store)
            try collector.register(writeKeys: ["bench"])
            var router = Router()
            collector.mount(on: &router)
            var http = HTTPServerConfiguration()
            http.port = 0
            let server = HTTPServer(configuration: http, router: router)
            try server.start()
            let wrk = Wrk(connections: connections, seconds: seconds)
            for streamOpen in run % 2 == 0 ? [false, true] : [true, false] {
                if streamOpen {
                    let tally = StreamTally()
                    let socket = try openStream(port: server.port)
                    let reader = Thread {
                        Self.read(socket, into: tally)
                        tally.finished.signal()
                    }
                    reader.start()
                    let result = try wrk.run(server.baseURL, script: script.path, path: "/v1/batch")
                    with.append(result.requestsPerSecond * Double(BenchPayload.eventsPerBatch))
                    shown.append(Double(tally.events.load(ordering: .relaxed)) / Double(seconds))
                    skips.append(tally.skips.load(ordering: .relaxed))
                    tally.stop.store(true, ordering: .relaxed)
                    tally.finished.wait()
                } else {
                    let result = try wrk.run(server.baseURL, script: script.path, path: "/v1/batch")
                    without.append(result.requestsPerSecond * Double(BenchPayload.eventsPerBatch))
                }
            }
            server.stop()
            collector.shutdown()
        }
        let base = median(without), open = median(with)
        print(
            "== console stream: durable ingest with one live event stream open, lws, \(connections) connections, \(seconds) s, median of \(runs) runs =="
        )
        print(line("ingest, one console stream open", open, "ev/s", base, "ingest, no stream"))
        print(
            String(
                format: "ingest drop %.1f %% (goal < 5 %%); the stream delivered %.0f ev/s and skipped ahead %d times",
                (1 - open / base) * 100, median(shown), skips.sorted()[skips.count / 2]))
    }

    private func openStream(port: Int) throws -> RawSocket {
        let socket = try RawSocket(port: port, timeoutSeconds: 1)
        try socket.send(
            "GET /v1/events/stream?writeKey=bench&last=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(Self.adminToken)\r\nAccept: text/event-stream\r\n\r\n")
        return socket
    }

    /// Counts events and `skipped` notices until told to stop or the socket goes quiet.
    private static func read(_ socket: RawSocket, into tally: StreamTally) {
        // Lines are split on bytes: the chunked framing's CR LF would join them as one Character.
        var carry: [UInt8] = []
        while !tally.stop.load(ordering: .relaxed), let bytes = socket.read() {
            tally.bytes.add(bytes.count, ordering: .relaxed)
            var lines = (carry + bytes).split(separator: 10, omittingEmptySubsequences: false)
            carry = Array(lines.removeLast())
            for line in lines {
                if line.starts(with: Array("id: ".utf8)) { tally.events.add(1, ordering: .relaxed) }
                if line.elementsEqual("event: skipped".utf8) { tally.skips.add(1, ordering: .relaxed) }
            }
        }
    }
}
