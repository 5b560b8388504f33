import CBareHTTPPeer
import CourierHTTP
import Foundation

/// WebSockets on the libwebsockets engine, each figure beside its ceiling measured in the same
/// run: echo round trips through Courier's `/echo` route beside a bare C lws echo server (same
/// client, same process), and idle sockets held by each server in a child process, with the
/// server's memory per socket beside the 8 KB goal and the count beside the file limit.
struct WebSocketBenchmark {
    let runs: Int
    let seconds: Int
    /// Idle sockets to open; `nil` opens as many as the file limit leaves room for.
    let sockets: Int?
    let compression: Bool
    let echoSockets = 16
    /// Files each process keeps for itself besides the idle sockets.
    static let spareFiles = 500

    func run() throws {
        try echo()
        try idle()
    }

    /// Courier's server with one WebSocket route, `/echo`, on libwebsockets.
    /// - Parameter asTask: serve `/echo` with a task per socket reading `inbound` (the messenger's
    ///   delivery socket's shape, the ceiling of `messenger-server`) instead of a message handler
    ///   (no task per socket, as bare lws's callback; `Router.webSocket(_:onMessage:)`).
    static func startCourierServer(maximumConnections: Int = 10_000, asTask: Bool = false) throws -> HTTPServer {
        var router = Router()
        if asTask {
            router.webSocket("/echo") { socket, _, _ in
                for await message in socket.inbound { try await socket.outbound.send(message) }
            }
        } else {
            router.webSocket("/echo") { socket, message in try? socket.outbound.sendNow(message) }
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.maximumConnections = maximumConnections
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }

    private var deflate: String { compression ? "permessage-deflate on" : "compression off" }

    private func echo() throws {
        let load = WebSocketEchoLoad(sockets: echoSockets, seconds: seconds, compression: compression)
        let messages: [(String, WebSocketMessage)] = [
            ("32 B text", .text(String(repeating: "x", count: 32))),
            ("16 KB binary", .binary((0..<16_384).map { UInt8(truncatingIfNeeded: $0 &* 31) })),
        ]
        print(
            "== websocket echo: \(echoSockets) sockets on one WebSocketClient, sequential round trips, "
                + "\(seconds) s, \(deflate), median of \(runs) runs ==")
        print("   ceiling: bare lws echo in C on a libev foreign loop (Benchmarks/CBareHTTPPeer), same client")
        for (name, message) in messages {
            var courier: [WebSocketEchoLoad.Result] = [], bare: [WebSocketEchoLoad.Result] = []
            for _ in 0..<runs {
                let server = try Self.startCourierServer()
                courier.append(try load.run("ws://127.0.0.1:\(server.port)/echo", message))
                server.stop(deadline: .zero)
                let port = bare_websocket_peer_start(0)
                guard port > 0 else { throw BenchError("the bare WebSocket server did not start") }
                defer { bare_websocket_peer_stop() }
                bare.append(try load.run("ws://127.0.0.1:\(port)/echo", message))
            }
            print(
                line(
                    "\(name), Courier", median(courier.map(\.roundTripsPerSecond)), "rt/s",
                    median(bare.map(\.roundTripsPerSecond)), "bare lws echo in C"))
            print(
                decimalLine(
                    "\(name) p50, Courier", median(courier.map(\.p50Milliseconds)), "ms",
                    median(bare.map(\.p50Milliseconds)), "bare lws echo in C"))
            print(
                decimalLine(
                    "\(name) p99, Courier", median(courier.map(\.p99Milliseconds)), "ms",
                    median(bare.map(\.p99Milliseconds)), "bare lws echo in C"))
        }
    }

    private func idle() throws {
        let limit = fileLimit()
        let count = sockets ?? max(1, limit.soft - Self.spareFiles)
        let load = WebSocketIdleLoad(sockets: count, compression: compression)
        var courier: [WebSocketIdleLoad.Result] = [], bare: [WebSocketIdleLoad.Result] = []
        for _ in 0..<runs {
            courier.append(try load.run(.courier))
            bare.append(try load.run(.bare))
        }
        print(
            "== websocket idle: \(count) sockets asked for, opened \(load.batch) at a time through one WebSocketClient, "
                + "one echo each, then idle; each server in a child process; \(deflate); median of \(runs) runs ==")
        for (name, results) in [("Courier", courier), ("bare lws", bare)] {
            for result in results { if let failure = result.failure { print("   \(name): \(failure)") } }
        }
        let held = (median(courier.map { Double($0.held) }), median(bare.map { Double($0.held) }))
        let perSocket = (median(courier.map(\.kilobytesPerSocket)), median(bare.map(\.kilobytesPerSocket)))
        print(line("idle sockets held, Courier", held.0, "", Double(limit.soft), "file limit (RLIMIT_NOFILE)"))
        print(line("idle sockets held, bare lws", held.1, "", Double(limit.soft), "file limit (RLIMIT_NOFILE)"))
        print(decimalLine("server RSS per socket, Courier", perSocket.0, "KB", 8, "goal ≤ 8 KB"))
        print(
            decimalLine("server RSS per socket, Courier", perSocket.0, "KB", perSocket.1, "bare lws in C (lws floor)"))
        let echoes = (courier.compactMap(\.echoMilliseconds), bare.compactMap(\.echoMilliseconds))
        if echoes.0.count == courier.count, echoes.1.count == bare.count {
            print(
                decimalLine(
                    "echo with all held, Courier", median(echoes.0), "ms", median(echoes.1), "bare lws in C"))
        } else {
            func figure(_ values: [Double], _ runs: Int) -> String {
                let answered = values.isEmpty ? "" : String(format: ", median %.2f ms when answered", median(values))
                return "no answer within 20 s in \(runs - values.count) of \(runs) runs\(answered)"
            }
            print(
                "   echo with all held: Courier \(figure(echoes.0, courier.count)); "
                    + "bare lws \(figure(echoes.1, bare.count))")
        }
        func mebibytes(_ results: [WebSocketIdleLoad.Result], _ path: KeyPath<WebSocketIdleLoad.Result, Int>) -> Int {
            Int(median(results.map { Double($0[keyPath: path]) })) >> 20
        }
        print(
            "   server RSS: Courier \(mebibytes(courier, \.residentBefore)) → \(mebibytes(courier, \.residentAfter)) MiB, "
                + "bare lws \(mebibytes(bare, \.residentBefore)) → \(mebibytes(bare, \.residentAfter)) MiB; opening took "
                + String(
                    format: "%.1f s (Courier), %.1f s (bare lws)", median(courier.map(\.openSeconds)),
                    median(bare.map(\.openSeconds))))
        let instances = { (perProcess: Double) in Int((100_000 / max(1, perProcess)).rounded(.up)) }
        print(
            String(
                format: "   100,000 sockets would need about %.0f MB of server RSS at Courier's %.2f KB each "
                    + "(bare lws: %.0f MB), and 100,000+ file descriptors: each process may open %d here "
                    + "(hard limit %d), so raise the limit (ulimit -n, LimitNOFILE) to about 100,500, or run "
                    + "%d instances at %d sockets each (%d at the %.0f Courier held here) behind a balancer",
                perSocket.0 * 100, perSocket.0, perSocket.1 * 100, limit.soft, limit.hard, instances(Double(count)),
                count, instances(held.0), held.0))
    }
}

/// `line` with two decimals, for milliseconds and kilobytes.
func decimalLine(_ name: String, _ value: Double, _ unit: String, _ peer: Double, _ peerName: String) -> String {
    let ratio = peer > 0 ? value / peer : 0
    func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
    return pad(name, 30) + String(format: "%12.2f", value) + " " + unit + "   vs " + pad(peerName, 32)
        + String(format: "%12.2f", peer) + " " + unit + String(format: "   = %.2f×", ratio)
}
