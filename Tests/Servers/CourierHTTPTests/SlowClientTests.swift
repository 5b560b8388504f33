import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// What the event-driven engine makes possible: idle and slow clients cost it a socket each, not
/// a worker, so legitimate requests keep being answered while they hold connections open.
@Suite(.timeLimit(.minutes(2)))
struct SlowClientTests {
    static let idleConnections = 2_000
    static let drippingConnections = 2_000
    static let legitimateRequests = 50
    /// Twice the suite's 2-minute time limit, in milliseconds.
    static let longerThanTheTimeLimit = 4 * 60_000

    let server: HTTPServer

    init() throws {
        var router = Router()
        router.add("GET", "/hello/{name}") { request in .json(["hello": .string(request.pathParameters["name"] ?? "")])
        }
        router.add("POST", "/echo") { request in HTTPResponse(status: 200, body: request.body) }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        // Longer than the suite's time limit, so no run of the test can reach them: the slow
        // clients must still be connected while it measures. (The test takes under a second
        // alone and 30–110 s beside the other suites on 2 cores: at 60 s, a dripper's deadline
        // could pass mid-test, the engine answered it 408 and closed, and its next byte failed
        // with "Broken pipe", as a 200 ms timeout shows every time.)
        configuration.requestTimeoutMilliseconds = Self.longerThanTheTimeLimit
        configuration.keepAliveTimeoutMilliseconds = Self.longerThanTheTimeLimit
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
    }

    @Test func idleAndDrippingClientsDoNotStopLegitimateRequests() async throws {
        defer { inBackground { [server] in server.stop(deadline: .zero) } }
        let port = server.port
        let outcome = await runOffPool { () -> Result<[Double], RawSocket.Failure> in
            do {
                let idle = try (0..<Self.idleConnections).map { _ in try RawSocket(port: port) }
                let drippers = try (0..<Self.drippingConnections).map { _ in try RawSocket(port: port) }
                for dripper in drippers {
                    try dripper.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nx")
                }
                // Answered once every head above has been read (lws reads sockets in turn):
                // from here on, only the steady drip runs beside the measured requests.
                let first = try RawSocket(port: port)
                try first.send("GET /hello/first HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                _ = first.readResponse()
                var latencies: [Double] = []
                let share = Self.drippingConnections / 10
                for index in 0..<Self.legitimateRequests {
                    // A tenth of the drippers send one more byte of their body before each
                    // legitimate request, in turn: every dripper once per ten requests.
                    let turn = (index % 10) * share
                    for dripper in drippers[turn..<(turn + share)] { try dripper.send("x") }
                    let started = ContinuousClock.now
                    let socket = try RawSocket(port: port, timeoutSeconds: 5)
                    try socket.send("GET /hello/n\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    guard let response = socket.readResponse(), response.status == 200,
                        String(decoding: response.body, as: UTF8.self).contains("n\(index)")
                    else { continue }
                    let elapsed = ContinuousClock.now - started
                    latencies.append(
                        Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
                }
                withExtendedLifetime((idle, drippers)) {}
                return .success(latencies)
            } catch let failure as RawSocket.Failure {
                return .failure(failure)
            } catch {
                return .failure(RawSocket.Failure(description: "\(error)"))
            }
        }
        let latencies = try outcome.get()
        #expect(latencies.count == Self.legitimateRequests)
        // p99 of 50 is the slowest but one. The goal is 100 ms: 46 ms was measured with this
        // suite alone and the machine's load average at 20, 253 ms with every other suite
        // running at once (docs/http-engine.md). The bound tells an engine that keeps serving
        // from one that stops (a thread-per-connection engine's requests time out here).
        let p99 = latencies.sorted().dropLast().last ?? .infinity
        #expect(p99 < 1_000, "p99 \(p99) ms")
    }
}

/// Many requests on a few keep-alive connections at once: each answer completes a transaction,
/// and lws frees and reallocates per-session data in between.
@Suite(.timeLimit(.minutes(2)))
struct LibWebSocketsKeepAliveTests {
    @Test func manyRequestsOnConcurrentKeepAliveConnections() async throws {
        var router = Router()
        router.add("POST", "/echo") { request in HTTPResponse(status: 200, body: request.body) }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        defer { inBackground { server.stop(deadline: .zero) } }
        let port = server.port
        let answered = await withTaskGroup(of: Int.self) { group in
            for connection in 0..<8 {
                group.addTask {
                    await runOffPool {
                        guard let socket = try? RawSocket(port: port) else { return 0 }
                        var count = 0
                        for index in 0..<150 {
                            let body = "c\(connection)-r\(index)"
                            let request = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                            guard (try? socket.send(request + body)) != nil,
                                let response = socket.readResponse(),
                                response.status == 200, response.body == Array(body.utf8)
                            else { return count }
                            count += 1
                        }
                        return count
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(answered == 8 * 150)
    }
}
