import Foundation
import SignalInteropPeer
import CourierCommandLine
import CourierHTTP

/// `courier-bench <benchmark> … [options]`: read against `command`, then each benchmark run in turn.
enum BenchCommand {
    static let benchmarks = """
        BENCHMARKS:
          collector   durable ingest through POST /v1/batch (wrk, 32 and 4 connections, 100-event batches)
                      beside the same server answering a body-read-only route and SQLite inserting
                      the same rows
          dedupe      dedupe-memory candidates storing 60k rows in 100-row durable transactions
          ingest-profile  the collector's time per event, stage by stage, on SDK-shaped batches
          sdk-e2e-kill    sdk end to end to a courier-server process killed (SIGKILL) mid-run and
                      restarted; fails unless every event is stored exactly once
          console     durable ingest with one console live event stream open beside none, same
                      run (goal: less than 5 % slower)
          http        the HTTP layer: small GETs and 10 KB POSTs through the full middleware chain,
                      beside a bare C lws server answering the same routes
          flags       feature flag evaluations/s (10 rules and a rollout) beside a dictionary lookup,
                      regex conditions on RE2 beside NSRegularExpression (everyday patterns and
                      (a+)+$), and fetch-to-activate latency on loopback beside a bare GET
          json        parsing Segment batches: Courier's parser beside Foundation's
          sdk         the analytics SDK: track cost beside a bare actor hop, queue writes beside
                      SQLite, end to end to the collector, memory with the network down
          sdk-memory  only the SDK's memory with the network down (fails when RSS keeps growing)
          signal      sessions and messages per second beside libsignal-protocol-c
          images      12-megapixel JPEGs to 300-pixel thumbnails per second and peak memory beside
                      vipsthumbnail, and the image pipeline's latency per cache tier (not in `all`)
          websocket   echo round trips through Courier's WebSocket route beside a bare C lws echo
                      server, and idle sockets held per server process with memory per socket
                      (not in `all`: it takes several minutes)
          messenger-server
                      envelopes routed with fan-out to 3 live devices and send-to-delivery
                      latency beside the engine's echo, a 10,000-envelope drain, idle
                      authenticated sockets and server memory per socket (not in `all`)
          sdk-launch  Analytics(configuration:) and the first track on the app's thread, the first
                      instance of the process apart, beside the ≤ 50 µs / ≤ 2 µs goals (not in `all`)
          sdk-size    what linking Analytics adds to a release binary beside the same app without
                      it, and any server or crypto code linked (build sdk-size-probe and
                      hello-size-probe with -c release first; make bench does; not in `all`)
          nats        the bus between instances: a publish to another connection and the presence
                      request (no responders, answered), p50/p99, and memory per subscription in
                      this process and in nats-server (not in `all`)
          messenger-cluster
                      routing on two courier-server processes behind haproxy with PostgreSQL and
                      NATS beside one process alone, and send → delivery across instances beside
                      the same instance (needs courier-server built beside courier-bench; not in `all`)
          messenger-signin
                      devices opening authenticated sockets per second against a fresh server
                      (salted token hashes) beside the same with legacy Argon2id credentials, and
                      the server's peak memory under floods of unauthenticated registrations and
                      links and of wrong legacy sign-ins, with a signed-in device's slowest answer
                      (--sockets for the devices, default 3,000; not in `all`)
          messenger   end-to-end messages/s and send → stored p50/p99 for 1:1 with two devices each
                      and a group of 50 pairwise and by sender keys, beside the SignalProtocol-only
                      cost of the same encryptions in the same run (--messages for 1:1, default 200;
                      not in `all`)
          messenger-store
                      the messenger's conversation store: incoming messages stored (a transaction
                      each) and history read by before: cursors, beside plain SQLite doing the same
                      to the same rows (--records messages)
          sync        local writes with the oplog and an observer beside raw SQLite, push and pull
                      ops/s on loopback beside the sync store in process, time to converge
                      --records records across two clients
          realtime    --clients realtime connections reconnecting after a messenger server restart:
                      time until all are live and peak attempts/s (counted by a proxy in front of
                      the server) with full jitter beside a fixed 1 s delay, same run; outbox
                      messages acked/s through a live socket beside a bare socket (not in `all`)
          attachments an encrypted attachment uploaded and downloaded through the messenger server
                      (resumable pieces; size and digest checked before decrypting) beside the same
                      bytes without encryption and beside AttachmentCipher alone (not in `all`)
          all         every benchmark above except websocket
        """

    /// The benchmark names `run` knows: the ones listed above and the child processes some of
    /// them start (`websocket-server`, …) or their parts (`sdk-queue`, …).
    static let benchmarkNames = [
        "collector", "dedupe", "ingest-profile", "sdk-e2e-kill", "console", "http", "flags", "json", "sdk",
        "sdk-memory", "sdk-queue", "sdk-e2e", "signal", "signal-oneway", "images", "websocket", "websocket-server",
        "websocket-bare-server", "messenger-server", "messenger-signin", "messenger", "messenger-store", "sync",
        "realtime", "attachments", "nats", "messenger-cluster", "sdk-launch", "sdk-launch-configure",
        "sdk-launch-task", "sdk-launch-thread", "sdk-size", "all",
    ]

    /// `courier-bench`'s one command: the table its command line is read against.
    static let command = Command(
        "courier-bench",
        summary: "Benchmarks, each printing its figure beside a peer or ceiling measured in the same run.",
        discussion: benchmarks,
        arguments: [.variadic("BENCHMARK", help: "the benchmarks to run (default: all)", choices: benchmarkNames)],
        options: [
            .value("--runs", "N", help: "repetitions; the median is reported (default 3)"),
            .value(
                "--database", "URL",
                help: "postgres://…: collector and messenger-server also measure their PostgreSQL stores there"),
            .value("--seconds", "S", help: "length of each load run (default 8)"),
            .value("--messages", "N", help: "messages per signal run (default 4000)"),
            .value("--events", "N", help: "events for sdk-memory (default 1000000)"),
            .value(
                "--sockets", "N",
                help: "idle sockets for websocket (default: the file limit less 500) and messenger-server (10,000)"),
            .flag("--compression", help: "websocket with permessage-deflate negotiated (default off)"),
            .value("--records", "N", help: "records for sync, messages for messenger-store (default 10000)"),
            .value("--clients", "N", help: "realtime connections for realtime (default 200)"),
            .value("--cap", "S", help: "realtime's jitter cap in seconds (default 5; the connection's default is 30)"),
            .value(
                "--in-flight", "K", help: "sdk end to end: uploads in flight at once (default 4, the SDK's default)"),
            .value("--downtime", "S", help: "how long realtime's restarted server stays down, in seconds (default 2)"),
        ])

    static func run(_ arguments: [String]) -> Int32 {
        // The child process `images` measures: its arguments are paths, not benchmark names.
        if arguments.first == "images-worker" { return ImageBenchmark.worker(Array(arguments.dropFirst())) }
        if arguments.first == "messenger-idle-server" {
            let rest = arguments.dropFirst()
            return MessengerIdleServerProcess.serve(
                devices: rest.first.flatMap(Int.init) ?? 0,
                credentials: rest.dropFirst().first.flatMap(MessengerIdleServerProcess.Credentials.init) ?? .salted)
        }
        let invocation = command.parseOrExit(arguments, tool: "courier-bench")
        let positive = 1...Int.max
        let runs: Int
        let seconds: Int
        let messages: Int
        let events: Int
        let sockets: Int?
        let records: Int
        let clients: Int
        let cap: Int
        let downtime: Int
        let inFlight: Int
        do {
            runs = try invocation.integer("--runs", in: positive) ?? 3
            seconds = try invocation.integer("--seconds", in: positive) ?? 8
            messages = try invocation.integer("--messages", in: positive) ?? 4000
            events = try invocation.integer("--events", in: positive) ?? 1_000_000
            sockets = try invocation.integer("--sockets", in: positive)
            records = try invocation.integer("--records", in: positive) ?? 10_000
            clients = try invocation.integer("--clients", in: positive) ?? 200
            cap = try invocation.integer("--cap", in: positive) ?? 5
            downtime = try invocation.integer("--downtime", in: 0...Int.max) ?? 2
            inFlight = try invocation.integer("--in-flight", in: positive) ?? 4
        } catch {
            FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
            return UsageError.exitCode
        }
        let compression = invocation.flag("--compression")
        var names = invocation.arguments("BENCHMARK")
        if names.isEmpty || names == ["all"] { names = ["json", "http", "collector", "sdk", "signal", "flags"] }
        do {
            for name in names {
                switch name {
                case "dedupe": try DedupeBenchmark(runs: runs).run()
                case "ingest-profile": try IngestProfileBenchmark(runs: runs).run()
                case "sdk-e2e-kill": try SDKKillBenchmark(uploadsInFlight: inFlight).run()
                case "collector":
                    try CollectorBenchmark(runs: runs, seconds: seconds, database: invocation.value("--database")).run()
                case "http": try HTTPBenchmark(runs: runs, seconds: seconds).run()
                case "console": try ConsoleStreamBenchmark(runs: runs, seconds: seconds).run()
                case "json": try JSONBenchmark(runs: runs).run()
                case "nats": try NATSBenchmark(runs: runs).run()
                case "messenger-cluster": try MessengerClusterBenchmark(runs: runs, seconds: seconds).run()
                case "flags": try FlagsBenchmark(runs: runs).run()
                case "sync": try SyncBenchmark(runs: runs, records: records).run()
                case "messenger-store": try MessengerStoreBenchmark(runs: runs, records: records).run()
                case "realtime":
                    try RealtimeBenchmark(runs: runs, clients: clients, cap: cap, downtime: downtime).run()
                case "images": try ImageBenchmark(runs: runs).run()
                case "attachments": try AttachmentBenchmark(runs: runs, megabytes: 16).run()
                case "sdk": try SDKBenchmark(runs: runs, uploadsInFlight: inFlight).run()
                case "sdk-launch": try SDKLaunchBenchmark(runs: runs).run()
                case "sdk-size": try SDKSizeBenchmark().run()
                case "sdk-queue": try SDKBenchmark(runs: runs, uploadsInFlight: inFlight).queueOnly()
                case "sdk-e2e": try SDKBenchmark(runs: runs, uploadsInFlight: inFlight).endToEndOnly()
                case "sdk-memory": try SDKBenchmark(runs: runs, uploadsInFlight: inFlight).memory(events: events)
                case "websocket":
                    try WebSocketBenchmark(runs: runs, seconds: seconds, sockets: sockets, compression: compression)
                        .run()
                case "messenger": try MessengerBenchmark(runs: runs, messages: messages == 4000 ? 200 : messages).run()
                case "messenger-signin": try MessengerSignInBenchmark(runs: runs, devices: sockets ?? 3_000).run()
                case "messenger-server":
                    try MessengerServerBenchmark(
                        runs: runs, seconds: seconds, sockets: sockets ?? 10_000,
                        database: invocation.value("--database")
                    ).run()
                case "sdk-launch-configure", "sdk-launch-task", "sdk-launch-thread":
                    return SDKLaunchBenchmark.child(name)
                case "websocket-server": return WebSocketServerProcess.serve(.courier)
                case "websocket-bare-server": return WebSocketServerProcess.serve(.bare)
                case "signal-oneway": try SignalBenchmark.runOneWayOnly(messages: messages)
                case "signal":
                    var reports: [SignalBenchmark.Report] = []
                    for _ in 0..<runs { reports.append(try SignalBenchmark.run(messages: messages)) }
                    printSignal(reports)
                default:
                    FileHandle.standardError.write(Data("courier-bench: \(name) is not wired to a benchmark\n".utf8))
                    return 1
                }
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
            return 1
        }
    }

    private static func printSignal(_ reports: [SignalBenchmark.Report]) {
        print("== signal: 100-byte messages, median of \(reports.count) runs ==")
        guard let first = reports.first else { return }
        for (i, row) in first.rows.enumerated() {
            let ours = median(reports.map { $0.rows[i].ours })
            let peer = median(reports.map { $0.rows[i].libsignal })
            print(line(row.name, ours, "/s", peer, "libsignal-protocol-c"))
        }
    }
}

/// The median of a non-empty list (0 for an empty one).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// One result line: `name  value unit   vs peer value   ratio ×`.
func line(_ name: String, _ value: Double, _ unit: String, _ peer: Double, _ peerName: String) -> String {
    let ratio = peer > 0 ? value / peer : 0
    func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
    let figure = String(format: "%12.0f", value)
    let peerFigure = String(format: "%12.0f", peer)
    return pad(name, 30) + figure + " " + unit + "   vs " + pad(peerName, 32) + peerFigure + " " + unit
        + String(format: "   = %.2f×", ratio)
}
