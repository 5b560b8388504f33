import CBareHTTPPeer
import CourierCore
import CourierHTTP
import Foundation

/// The HTTP layer alone: small GETs and 10 KB POSTs through the full middleware chain, with wrk
/// on the same machine, printed beside the bare engine (a minimal C libwebsockets server
/// answering the same routes from its callback, the ceiling) measured in the same run.
struct HTTPBenchmark {
    let runs: Int
    let seconds: Int
    let connections = 32

    static let postScript = """
        local body = string.rep("x", 10240)
        function request()
            return wrk.format("POST", "/upload", {["Content-Type"] = "application/octet-stream"}, body)
        end
        """

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-bench-http-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("post.lua")
        try Self.postScript.write(to: script, atomically: true, encoding: .utf8)
        let wrk = Wrk(connections: connections, seconds: seconds)
        var gets: [Wrk.Result] = [], posts: [Wrk.Result] = []
        for _ in 0..<runs {
            let server = try makeServer()
            gets.append(try wrk.run(server.baseURL, script: nil, path: "/small"))
            posts.append(try wrk.run(server.baseURL, script: script.path, path: "/upload"))
            server.stop()
            if (gets + posts).contains(where: { $0.errors > 0 }) {
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
        print("== http: \(connections) connections, \(seconds) s, full middleware chain, median of \(runs) runs ==")
        print(
            line(
                "small GET", median(gets.map(\.requestsPerSecond)), "req/s", median(bareGets.map(\.requestsPerSecond)),
                "bare lws in C (goal ≥ 0.70×)"))
        print(
            line(
                "10 KB POST", median(posts.map(\.requestsPerSecond)), "req/s",
                median(barePosts.map(\.requestsPerSecond)),
                "bare lws in C (goal ≥ 0.70×)"))
        print(
            String(
                format: "small GET p99: %.2f ms, bare lws %.2f ms", median(gets.map(\.p99Milliseconds)),
                median(bareGets.map(\.p99Milliseconds))))
    }

    private func makeServer() throws -> HTTPServer {
        var router = Router()
        router.add("GET", "/small") { _ in .json(["ok": true]) }
        router.add("POST", "/upload") { request in .json(["bytes": .int(Int64(request.body.count))]) }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.handlerThreads = connections + 4
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }
}
