import CBareHTTPPeer
import CourierCore
import CourierHTTP
import Foundation

/// The HTTP layer alone on each engine: small GETs and 10 KB POSTs through the full middleware
/// chain, with wrk on the same machine. Courier on libwebsockets is printed beside the bare
/// engine (a minimal C server answering the same routes from its callback, the ceiling) and
/// beside Courier on civetweb, all measured in the same run.
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
        var figures: [HTTPEngineKind: (get: Double, post: Double, getP99: Double)] = [:]
        let wrk = Wrk(connections: connections, seconds: seconds)
        // COURIER_BENCH_ENGINES=libWebSockets measures one engine (and the bare one) only.
        let chosen = ProcessInfo.processInfo.environment["COURIER_BENCH_ENGINES"]?.split(separator: ",").map(
            String.init)
        for engine in HTTPEngineKind.allCases where chosen?.contains(engine.rawValue) ?? true {
            var gets: [Wrk.Result] = [], posts: [Wrk.Result] = []
            for _ in 0..<runs {
                let server = try makeServer(engine)
                gets.append(try wrk.run(server.baseURL, script: nil, path: "/small"))
                posts.append(try wrk.run(server.baseURL, script: script.path, path: "/upload"))
                server.stop()
                if (gets + posts).contains(where: { $0.errors > 0 }) {
                    throw BenchError("\(engine.rawValue) answered errors under load")
                }
            }
            figures[engine] = (
                median(gets.map(\.requestsPerSecond)), median(posts.map(\.requestsPerSecond)),
                median(gets.map(\.p99Milliseconds))
            )
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
        guard let lws = figures[.libWebSockets] else { return }
        print("== http: \(connections) connections, \(seconds) s, full middleware chain, median of \(runs) runs ==")
        print(
            line(
                "small GET, libWebSockets", lws.get, "req/s", median(bareGets.map(\.requestsPerSecond)),
                "bare lws in C (goal ≥ 0.70×)"))
        print(
            line(
                "10 KB POST, libWebSockets", lws.post, "req/s", median(barePosts.map(\.requestsPerSecond)),
                "bare lws in C (goal ≥ 0.70×)"))
        guard let civetweb = figures[.civetweb] else { return }
        print(line("small GET, libWebSockets", lws.get, "req/s", civetweb.get, "civetweb"))
        print(line("10 KB POST, libWebSockets", lws.post, "req/s", civetweb.post, "civetweb"))
        print(String(format: "small GET p99: libWebSockets %.2f ms, civetweb %.2f ms", lws.getP99, civetweb.getP99))
    }

    private func makeServer(_ engine: HTTPEngineKind) throws -> HTTPServer {
        var router = Router()
        router.add("GET", "/small") { _ in .json(["ok": true]) }
        router.add("POST", "/upload") { request in .json(["bytes": .int(Int64(request.body.count))]) }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.engine = engine
        configuration.workerThreads = connections + 4
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }
}
