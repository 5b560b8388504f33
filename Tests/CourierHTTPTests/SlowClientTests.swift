import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// What the event-driven engine makes possible: idle and slow clients cost it a socket each, not
/// a worker, so legitimate requests keep being answered while they hold connections open.
@Suite(.timeLimit(.minutes(2)))
struct SlowClientTests {
    static let idleConnections = 200
    static let drippingConnections = 32
    static let legitimateRequests = 20

    let server: HTTPServer

    init() throws {
        var router = Router()
        router.add("GET", "/hello/{name}") { request in .json(["hello": .string(request.pathParameters["name"] ?? "")])
        }
        router.add("POST", "/echo") { request in HTTPResponse(status: 200, body: request.body) }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.engine = .libWebSockets
        // Longer than the test: the slow clients must still be connected while it measures.
        configuration.requestTimeoutMilliseconds = 60_000
        configuration.keepAliveTimeoutMilliseconds = 60_000
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
                var latencies: [Double] = []
                for index in 0..<Self.legitimateRequests {
                    // Every dripper sends one more byte of its body between two legitimate requests.
                    for dripper in drippers { try dripper.send("x") }
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
        // Generous for a loaded 2-core CI machine; unloaded, each takes well under a millisecond.
        #expect((latencies.max() ?? .infinity) < 1_000)
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
        configuration.engine = .libWebSockets
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
