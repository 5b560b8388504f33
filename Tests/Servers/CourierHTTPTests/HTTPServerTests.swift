import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Synchronization
import Testing

/// Lines handed to the access log, collected for assertions.
final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A gate a handler waits on, so a test can hold a request in flight.
final class CallCounter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

final class Gate: Sendable {
    let entered = DispatchSemaphore(value: 0)
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// `POST /slow`: signals `entered`, awaits `open()` (holding no thread: handlers may run on
    /// Swift's shared pool), answers the body's size.
    func addSlowRoute(to router: inout Router) {
        router.add("POST", "/slow") { [self] request, _ in
            entered.signal()
            await withCheckedContinuation { continuation in
                let open = state.withLock { state in
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
                if open { continuation.resume() }
            }
            return .json(["received": .int(Int64(request.body.count))])
        }
    }

    /// Lets the slow handlers answer.
    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

@Suite(.timeLimit(.minutes(2)))
struct HTTPServerTests {
    let server: HTTPServer
    let log = LogLines()
    let gate = Gate()
    let client = HTTPClient(timeout: .seconds(20))
    let echoCalls = CallCounter()

    init() throws {
        var router = Router()
        router.add("GET", "/hello/{name}") { request in
            .json(["hello": .string(request.pathParameters["name"] ?? ""), "q": .string(request.query["q"] ?? "")])
        }
        let echoCalls = self.echoCalls
        router.add("POST", "/echo") { request in
            echoCalls.increment()
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/octet-stream")], body: request.body)
        }
        gate.addSlowRoute(to: &router)
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.maximumBodyBytes = 64 * 1024
        configuration.maximumDecompressedBodyBytes = 256 * 1024
        configuration.requestTimeoutMilliseconds = 500
        let log = self.log
        configuration.accessLog = { log.append($0) }
        let metrics = HTTPMetrics()
        router.addHealthCheck()
        router.addMetrics(metrics)
        server = HTTPServer(configuration: configuration, router: router, metrics: metrics)
        try server.start()
    }

    @Test func routesWithPathAndQueryParameters() async throws {
        defer { inBackground { [server] in server.stop() } }
        let response = try await client.send("GET", server.baseURL + "/hello/w%C3%B6rld?q=a%20b&x=1")
        #expect(response.status == 200)
        #expect(response.json == ["hello": "wörld", "q": "a b"])
        #expect(server.port > 0)
    }

    @Test func unknownRouteAndWrongMethodGetJSONErrors() async throws {
        defer { inBackground { [server] in server.stop() } }
        let missing = try await client.send("GET", server.baseURL + "/nope")
        #expect(missing.status == 404)
        #expect(missing.json?["error"]?["code"] == "not_found")
        let wrongMethod = try await client.send("DELETE", server.baseURL + "/echo")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("allow") == "POST")
        #expect(wrongMethod.json?["error"]?["code"] == "method_not_allowed")
    }

    @Test func bodyOverTheLimitIs413() async throws {
        defer { inBackground { [server] in server.stop() } }
        let big = [UInt8](repeating: 65, count: 64 * 1024 + 1)
        let response = try await client.send("POST", server.baseURL + "/echo", body: big)
        #expect(response.status == 413)
        #expect(response.json?["error"]?["code"] == "payload_too_large")
        let fits = try await client.send("POST", server.baseURL + "/echo", body: Array(big.dropLast()))
        #expect(fits.status == 200)
        #expect(fits.body.count == 64 * 1024)
    }

    @Test func chunkedBodyOverTheLimitIs413() async throws {
        defer { inBackground { [server] in server.stop() } }
        let port = server.port
        let response = try await offPool {
            let socket = try RawSocket(port: port)
            var request = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<20 { request += "1000\r\n" + String(repeating: "a", count: 4096) + "\r\n" }
            request += "0\r\n\r\n"
            try socket.send(request)
            return socket.readResponse()
        }
        #expect(response?.status == 413)
    }

    @Test func gzipBodiesAreDecompressed() async throws {
        defer { inBackground { [server] in server.stop() } }
        let text = Array(String(repeating: "courier ", count: 10_000).utf8)
        let response = try await client.send(
            "POST", server.baseURL + "/echo", headers: ["Content-Encoding": "gzip"],
            body: try Gzip.compress(text))
        #expect(response.status == 200)
        #expect(response.body == text)
    }

    @Test func zipBombIs413AndBadGzipIs400() async throws {
        defer { inBackground { [server] in server.stop() } }
        let bomb = try Gzip.compress([UInt8](repeating: 0, count: 20 << 20))
        let refused = try await client.send(
            "POST", server.baseURL + "/echo", headers: ["Content-Encoding": "gzip"], body: bomb)
        #expect(refused.status == 413)
        let garbage = try await client.send(
            "POST", server.baseURL + "/echo", headers: ["Content-Encoding": "gzip"],
            body: Array("not gzip at all".utf8))
        #expect(garbage.status == 400)
        #expect(garbage.json?["error"]?["code"] == "invalid_encoding")
        let brotli = try await client.send(
            "POST", server.baseURL + "/echo", headers: ["Content-Encoding": "br"], body: [1])
        #expect(brotli.status == 415)
    }

    @Test func healthMetricsAndAccessLog() async throws {
        defer { inBackground { [server] in server.stop() } }
        let health = try await client.send("GET", server.baseURL + "/healthz")
        #expect(health.json == ["status": "ok"])
        _ = try await client.send("GET", server.baseURL + "/hello/a")
        _ = try await client.send("GET", server.baseURL + "/hello/b")
        let metrics = try await client.send("GET", server.baseURL + "/metrics")
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(text.contains("courier_http_requests_total{method=\"GET\",route=\"/hello/{name}\",status=\"200\"} 2"))
        #expect(text.contains("courier_http_request_duration_seconds_count{method=\"GET\",route=\"/hello/{name}\"} 2"))
        #expect(server.metrics.count(method: "GET", route: "/healthz") == 1)
        #expect(log.all.contains { $0.contains("\"GET /hello/a\" 200") })
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        defer { inBackground { [server] in server.stop() } }
        // Connected and written on one thread, each request right after the last answer: the
        // suite's 500 ms request timeout would otherwise close a connection whose test thread
        // the other suites held up between two steps.
        let port = server.port
        let names = ["one", "two", "three"]
        let responses = try await offPool {
            let socket = try RawSocket(port: port)
            return try names.map { name in
                try socket.send("GET /hello/\(name) HTTP/1.1\r\nHost: x\r\n\r\n")
                return socket.readResponse()
            }
        }
        for (name, response) in zip(names, responses) {
            #expect(response?.status == 200)
            #expect(response.map { String(decoding: $0.body, as: UTF8.self) }?.contains(name) == true)
        }
    }

    @Test func slowClientIsCutOffAndItsPartialBodyNeverReachesTheHandler() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port, timeoutSeconds: 10)
        try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part of it")
        // The server's request timeout (500 ms) ends the request; the read returns on the close,
        // well before the socket's own 10 s timeout.
        let result = await runOffPool { socket.readUntilClosed() }
        #expect(result.timedOut == false)
        #expect(String(decoding: result.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
        #expect(echoCalls.value == 0)
    }

    @Test func hugeDeclaredBodyGets413AndTheConnectionClosesWithoutDraining() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port, timeoutSeconds: 10)
        try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000000\r\n\r\nstart")
        let result = await runOffPool { socket.readUntilClosed() }
        #expect(result.timedOut == false)
        #expect(String(decoding: result.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 413"))
        #expect(echoCalls.value == 0)
    }

    @Test func headAnswersWithoutABodyAndABusyPortIsAClearError() async throws {
        defer { inBackground { [server] in server.stop() } }
        let head = try await client.send("HEAD", server.baseURL + "/healthz")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        var configuration = HTTPServerConfiguration()
        configuration.port = server.port
        let second = HTTPServer(configuration: configuration, router: Router())
        #expect(throws: HTTPServerError.self) { try second.start() }
    }

    @Test func gracefulStopFinishesTheRequestInFlight() async throws {
        let server = self.server
        let port = server.port
        // The tables are read in several calls, not as one snapshot: another test's socket
        // coming or going meanwhile can make one pass miss the listener.
        var found: String?
        _ = await poll {
            found = Self.listeningSocketInode(port: port)
            return found != nil
        }
        let listener = try #require(found, "the server listens on its port")
        let inFlight = Task { try await client.send("POST", server.baseURL + "/slow", body: [1, 2, 3]) }
        #expect(await waitOffPool(gate.entered))
        let stopped = Task { await server.shutdown() }
        // The stop is waiting for the handler; let the handler finish.
        gate.open()
        let response = try await inFlight.value
        #expect(await stopped.value == 0)
        #expect(response.status == 200)
        #expect(response.json == ["received": 3])
        // The listening socket itself is closed. (Connecting to the port is no test of that:
        // another test's server may have been given the port since.)
        #expect(!Self.socketInodes().contains(listener))
    }

    /// The kernel's inode of the socket listening on `127.0.0.1:port` or `[::]:port` now.
    static func listeningSocketInode(port: Int) -> String? {
        let local = String(format: ":%04X", port)
        for line in socketTableLines() {
            let fields = line.split(separator: " ")
            // sl, local address, remote address, state (0A: listening), …, inode (the 10th).
            guard fields.count > 9, fields[1].hasSuffix(local), fields[3] == "0A" else { continue }
            return String(fields[9])
        }
        return nil
    }

    /// The inodes of every TCP socket in the kernel's tables now.
    static func socketInodes() -> Set<String> {
        Set(
            socketTableLines().compactMap { line in
                let fields = line.split(separator: " ")
                return fields.count > 9 ? String(fields[9]) : nil
            })
    }

    /// Read to the end: these files report a size of 0, and `String(contentsOfFile:)` then reads
    /// one page of them (about 26 sockets), so a listener behind the other tests' sockets was
    /// missed.
    static func socketTableLines() -> [Substring] {
        ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { path in
            let data = (try? FileHandle(forReadingAtPath: path)?.readToEnd()) ?? nil
            return String(decoding: data ?? Data(), as: UTF8.self).split(separator: "\n").dropFirst()
        }
    }

    /// A chunked body arrives with its framing; the engine decodes it, piece by piece.
    @Test func aChunkedBodyIsDecodedWhateverItsPieces() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port)
        try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;name=v\r\nhel")
        try socket.send("lo\r\n")
        try socket.send("7\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n")
        let response = await runOffPool { socket.readResponse() }
        #expect(response?.status == 200)
        #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == "hello, world")
        #expect(response?.head.lowercased().contains("connection: close") == true)
    }
}
