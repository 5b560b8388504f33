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
        var loopGets: [Wrk.Result] = [], loopPosts: [Wrk.Result] = []
        for _ in 0..<runs {
            let server = try makeServer()
            gets.append(try wrk.run(server.baseURL, script: nil, path: "/small"))
            posts.append(try wrk.run(server.baseURL, script: script.path, path: "/upload"))
            loopGets.append(try wrk.run(server.baseURL, script: nil, path: "/small-on-loop"))
            loopPosts.append(try wrk.run(server.baseURL, script: loopScript.path, path: "/upload-on-loop"))
            server.stop()
            if (gets + posts + loopGets + loopPosts).contains(where: { $0.errors > 0 }) {
                throw BenchError("the server answered errors under load")
            }
        }
        var bareGets: [Wrk.Result] = [], barePosts: [Wrk.Result] = []
        for _ in 0..<runs {
            let port = bare_http_peer_start(0)
            guard port > 0 else { throw BenchError("the bare libwebsockets server did not start") }
            let url = "http://127.0.0.1:\(port)"
            bareGets.append(try wrk.run(url, script: nil, path: "/small"))
            barePosts.append(try wrk.run(url, script: script.path, path: "/upload"))
            bare_http_peer_stop()
            if (bareGets + barePosts).contains(where: { $0.errors > 0 || $0.requests == 0 }) {
                throw BenchError("the bare libwebsockets server answered errors under load")
            }
        }
        let bareGet = median(bareGets.map(\.requestsPerSecond))
        let barePost = median(barePosts.map(\.requestsPerSecond))
        print("== http: \(connections) connections, \(seconds) s, full middleware chain, median of \(runs) runs ==")
        print(
            line(
                "small GET, route on the loop", median(loopGets.map(\.requestsPerSecond)), "req/s", bareGet,
                "bare lws in C (goal ≥ 0.70×)"))
        print(
            line(
                "10 KB POST, route on the loop", median(loopPosts.map(\.requestsPerSecond)), "req/s", barePost,
                "bare lws in C (goal ≥ 0.70×)"))
        print(line("small GET, handler task", median(gets.map(\.requestsPerSecond)), "req/s", bareGet, "bare lws in C"))
        print(
            line("10 KB POST, handler task", median(posts.map(\.requestsPerSecond)), "req/s", barePost, "bare lws in C")
        )
        print(
            String(
                format: "small GET p99: %.2f ms on the loop, %.2f ms as a task, bare lws %.2f ms",
                median(loopGets.map(\.p99Milliseconds)), median(gets.map(\.p99Milliseconds)),
                median(bareGets.map(\.p99Milliseconds))))
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
