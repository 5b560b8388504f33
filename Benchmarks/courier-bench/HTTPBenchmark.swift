import CBareHTTPPeer
import CourierCore
import CourierHTTP
import Foundation

/// The HTTP layer alone: small GETs and 10 KB POSTs through the full middleware chain, with wrk
/// on the same machine, to routes on the engine's loop (`.onLoop`) and to the same routes as
/// handler tasks, printed beside the bare engine (a minimal C libwebsockets server
/// answering the same routes from its callback, the ceiling) measured in the same run.
struct HTTPBenchmark {
    let runs: Int
    let seconds: Int
    let connections = 32

    /// wrk's script for 10 KB POSTs to `path`.
    static func postScript(_ path: String) -> String {
        """
        local body = string.rep("x", 10240)
        function request()
            return wrk.format("POST", "\(path)", {["Content-Type"] = "application/octet-stream"}, body)
        end
        """
    }

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-bench-http-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("post.lua")
        try Self.postScript("/upload").write(to: script, atomically: true, encoding: .utf8)
        let loopScript = directory.appendingPathComponent("post-loop.lua")
        try Self.postScript("/upload-on-loop").write(to: loopScript, atomically: true, encoding: .utf8)
        let wrk = Wrk(connections: connections, seconds: seconds)
        var gets: [Wrk.Result] = [], posts: [Wrk.Result] = []
        var loopGets: [Measured] = [], loopPosts: [Measured] = []
        var bareGets: [Measured] = [], barePosts: [Measured] = []
        // Each of Courier's figures on the loop is measured right beside the bare server's, so the
        // two share their minute (this machine's speed moves between minutes more than between
        // the two); the routes run as tasks follow.
        for _ in 0..<runs {
            let server = try makeServer()
            let port = bare_http_peer_start(0)
            guard port > 0 else { throw BenchError("the bare libwebsockets server did not start") }
            let bare = "http://127.0.0.1:\(port)"
            loopGets.append(try measure { try wrk.run(server.baseURL, script: nil, path: "/small-on-loop") })
            bareGets.append(try measure { try wrk.run(bare, script: nil, path: "/small") })
            loopPosts.append(
                try measure { try wrk.run(server.baseURL, script: loopScript.path, path: "/upload-on-loop") })
            barePosts.append(try measure { try wrk.run(bare, script: script.path, path: "/upload") })
            bare_http_peer_stop()
            gets.append(try wrk.run(server.baseURL, script: nil, path: "/small"))
            posts.append(try wrk.run(server.baseURL, script: script.path, path: "/upload"))
            server.stop()
            if (gets + posts + (loopGets + loopPosts).map(\.load)).contains(where: { $0.errors > 0 }) {
                throw BenchError("the server answered errors under load")
            }
            if (bareGets + barePosts).map(\.load).contains(where: { $0.errors > 0 || $0.requests == 0 }) {
                throw BenchError("the bare libwebsockets server answered errors under load")
            }
        }
        let bareGet = median(bareGets.map(\.load.requestsPerSecond))
        let barePost = median(barePosts.map(\.load.requestsPerSecond))
        print("== http: \(connections) connections, \(seconds) s, full middleware chain, median of \(runs) runs ==")
        print(
            line(
                "small GET, route on the loop", median(loopGets.map(\.load.requestsPerSecond)), "req/s", bareGet,
                "bare lws in C (goal ≥ 0.70×)"))
        print(
            line(
                "10 KB POST, route on the loop", median(loopPosts.map(\.load.requestsPerSecond)), "req/s", barePost,
                "bare lws in C (goal ≥ 0.70×)"))
        // The rates above move with the time other machines take from these cores; the CPU the
        // serving process spent per request does not, and its ratio says the same thing.
        print(
            line(
                "small GET on the loop, per CPU s", median(loopGets.map(\.requestsPerCPUSecond)), "req",
                median(bareGets.map(\.requestsPerCPUSecond)), "bare lws in C, per CPU s"))
        print(
            line(
                "10 KB POST on the loop, per CPU s", median(loopPosts.map(\.requestsPerCPUSecond)), "req",
                median(barePosts.map(\.requestsPerCPUSecond)), "bare lws in C, per CPU s"))
        print(line("small GET, handler task", median(gets.map(\.requestsPerSecond)), "req/s", bareGet, "bare lws in C"))
        print(
            line("10 KB POST, handler task", median(posts.map(\.requestsPerSecond)), "req/s", barePost, "bare lws in C")
        )
        print(
            String(
                format: "small GET p99: %.2f ms on the loop, %.2f ms as a task, bare lws %.2f ms",
                median(loopGets.map(\.load.p99Milliseconds)), median(gets.map(\.p99Milliseconds)),
                median(bareGets.map(\.load.p99Milliseconds))))
    }

    /// A load run, and the CPU this process (the server under load; wrk is another process) spent
    /// per request during it.
    struct Measured {
        let load: Wrk.Result
        let requestsPerCPUSecond: Double
    }

    private func measure(_ run: () throws -> Wrk.Result) throws -> Measured {
        let before = ThreadCPU.now()
        let load = try run()
        let seconds = ThreadCPU.now().since(before) { _ in "process" }["process"] ?? 0
        return Measured(load: load, requestsPerCPUSecond: seconds > 0 ? Double(load.requests) / seconds : 0)
    }

    private func makeServer() throws -> HTTPServer {
        var router = Router()
        router.add("GET", "/small") { _ in .json(["ok": true]) }
        router.add("POST", "/upload") { request in .json(["bytes": .int(Int64(request.body.count))]) }
        router.add("GET", "/small-on-loop", execution: .onLoop) { _ in .json(["ok": true]) }
        router.add("POST", "/upload-on-loop", execution: .onLoop) { request in
            .json(["bytes": .int(Int64(request.body.count))])
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.handlerThreads = connections + 4
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }
}
