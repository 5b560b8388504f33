import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// The libwebsockets engine's connection and header limits.
@Suite(.timeLimit(.minutes(1)))
struct LibWebSocketsLimitsTests {
    static let maximumConnections = 20

    let server: HTTPServer

    init() throws {
        var router = Router()
        router.add("GET", "/hello") { _ in HTTPResponse(status: 200, body: Array("hello".utf8)) }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.maximumConnections = Self.maximumConnections
        configuration.maximumHeaderBytes = 2048
        // Longer than the test: idle connections must stay open while it runs.
        configuration.requestTimeoutMilliseconds = 60_000
        configuration.keepAliveTimeoutMilliseconds = 60_000
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
    }

    /// One request on a connection of its own; `nil` when the connection closed unanswered.
    private static func hello(port: Int) throws -> Int? {
        let socket = try RawSocket(port: port, timeoutSeconds: 5)
        try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return socket.readResponse()?.status
    }

    @Test func aConnectionOverTheLimitIsClosedUnansweredAndServedAgainOnceOthersClose() async throws {
        defer { inBackground { [server] in server.stop(deadline: .zero) } }
        let port = server.port
        let metrics = server.metrics
        let outcome = await runOffPool { () -> Result<([Int?], Bool, [UInt8], Int?), RawSocket.Failure> in
            do {
                var idle = try (0..<Self.maximumConnections).map { _ in try RawSocket(port: port) }
                // The kernel completes the handshake; lws closes the socket before reading it.
                let over = try RawSocket(port: port, timeoutSeconds: 5)
                try? over.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                let refused = over.readUntilClosed()
                // Every connection under the limit was kept: the first and the last are answered.
                var onIdle: [Int?] = []
                for socket in [idle[0], idle[Self.maximumConnections - 1]] {
                    try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    onIdle.append(socket.readResponse()?.status)
                }
                // Five end with `Connection: close`: lws closes each in the callback that writes its
                // answer, so the count is down by five before the client reads it.
                for socket in idle.suffix(5) {
                    try socket.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    onIdle.append(socket.readResponse()?.status)
                }
                idle.removeLast(5)
                let after = try Self.hello(port: port)
                // The refused connections were never counted: 5 more fit again, and no more.
                idle += try (0..<5).map { _ in try RawSocket(port: port) }
                let overAgain = try RawSocket(port: port, timeoutSeconds: 5)
                try? overAgain.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                let refusedAgain = overAgain.readUntilClosed()
                try idle[Self.maximumConnections - 1].send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                onIdle.append(idle[Self.maximumConnections - 1].readResponse()?.status)
                withExtendedLifetime(idle) {}
                return .success(
                    (onIdle, refused.timedOut || refusedAgain.timedOut, refused.bytes + refusedAgain.bytes, after))
            } catch let failure as RawSocket.Failure {
                return .failure(failure)
            } catch {
                return .failure(RawSocket.Failure(description: "\(error)"))
            }
        }
        let (onIdle, timedOut, answer, after) = try outcome.get()
        #expect(timedOut == false)
        #expect(answer.isEmpty)
        #expect(onIdle == Array(repeating: 200, count: 8))
        #expect(after == 200)
        #expect(metrics.refusedConnections >= 2)
        #expect(metrics.prometheusText().contains("courier_http_connections_refused_total"))
    }

    /// lws 4.1 answers nothing to a head it cannot hold: it closes the connection. Too many
    /// bytes (over `maximumHeaderBytes`) and too many lines of headers it knows (its table has
    /// one slot per known name, about 90 in all) end the same way.
    @Test(arguments: [
        ("User-Agent: " + String(repeating: "a", count: 1000) + "\r\n", true),
        ("User-Agent: " + String(repeating: "a", count: 4000) + "\r\n", false),
        (String(repeating: "Accept: a\r\n", count: 50), true),
        (String(repeating: "Accept: a\r\n", count: 150), false),
    ])
    func aHeadOverTheLimitsIsClosedUnanswered(headers: String, answered: Bool) async throws {
        defer { inBackground { [server] in server.stop(deadline: .zero) } }
        let port = server.port
        let outcome = await runOffPool { () -> Result<(bytes: [UInt8], timedOut: Bool), RawSocket.Failure> in
            do {
                let socket = try RawSocket(port: port, timeoutSeconds: 5)
                try? socket.send("GET /hello HTTP/1.1\r\nHost: x\r\n\(headers)Connection: close\r\n\r\n")
                return .success(socket.readUntilClosed())
            } catch let failure as RawSocket.Failure {
                return .failure(failure)
            } catch {
                return .failure(RawSocket.Failure(description: "\(error)"))
            }
        }
        let read = try outcome.get()
        #expect(read.timedOut == false)
        let status = String(decoding: read.bytes.prefix(12), as: UTF8.self)
        #expect(status == (answered ? "HTTP/1.1 200" : ""))
    }
}
