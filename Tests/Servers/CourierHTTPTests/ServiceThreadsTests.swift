import CourierTesting
import Foundation
import Testing

@testable import CourierHTTP

/// Several event loops on one port: each has its own listening socket (`SO_REUSEPORT`) and the
/// kernel spreads new connections across them.
@Suite(.timeLimit(.minutes(2)))
struct ServiceThreadsTests {
    let server: HTTPServer

    init() throws { server = try Self.start() }

    static func start(tls: HTTPServerTLS? = nil) throws -> HTTPServer {
        var router = Router()
        router.add(.get, "/hello/{name}") { request in .text("hello \(request.pathParameters["name"] ?? "")") }
        router.webSocket("/echo") { socket, _, _ in
            for await message in socket.inbound { try await socket.outbound.send(message) }
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.serviceThreads = 2
        configuration.tls = tls
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }

    @Test func connectionsAreSpreadOverTheLoopsAndAllAnswered() async throws {
        let port = server.port
        let answered = await runOffPool { () -> Int in
            var count = 0
            for index in 0..<64 {
                guard let socket = try? RawSocket(port: port) else { continue }
                try? socket.send("GET /hello/n\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if let response = socket.readResponse(), response.status == 200,
                    response.body == Array("hello n\(index)".utf8)
                {
                    count += 1
                }
            }
            return count
        }
        #expect(answered == 64)
        let group = try #require(server.runningEngine as? LibWebSocketsEngineGroup)
        let perLoop = group.engines.map(\.acceptedConnections)
        #expect(perLoop.count == 2)
        // 64 connections hashed over two listeners leave neither without any (a chance of 2^-63).
        #expect(perLoop.allSatisfy { $0 > 0 }, "\(perLoop)")
        #expect(perLoop.reduce(0, +) == 64)
        await server.shutdown(deadline: .zero)
    }

    @Test func webSocketsOnEveryLoopEchoAndCloseWith1001OnStop() async throws {
        let client = try WebSocketClient()
        var sockets: [WebSocket] = []
        for _ in 0..<16 { sockets.append(try await client.connect(to: "ws://127.0.0.1:\(server.port)/echo")) }
        for (index, socket) in sockets.enumerated() {
            try await socket.outbound.send(text: "\(index)")
            var iterator = socket.inbound.makeAsyncIterator()
            #expect(await iterator.next() == .text("\(index)"))
        }
        await server.shutdown(deadline: .seconds(5))
        for socket in sockets { #expect(await socket.closed().code == .goingAway) }
        await runOffPool { client.shutdown() }
    }

    @Test func tlsOnEveryLoop() async throws {
        await server.shutdown(deadline: .zero)
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let server = try Self.start(
            tls: HTTPServerTLS(
                certificateChainPath: certificates.serverCertificate, privateKeyPath: certificates.serverKey))
        var trusting = WebSocketClientConfiguration()
        trusting.additionalTrustedCertificatesPath = certificates.caCertificate
        let client = try WebSocketClient(configuration: trusting)
        for index in 0..<16 {
            let socket = try await client.connect(to: "wss://localhost:\(server.port)/echo")
            try await socket.outbound.send(text: "\(index)")
            var iterator = socket.inbound.makeAsyncIterator()
            #expect(await iterator.next() == .text("\(index)"))
            socket.outbound.close()
        }
        let group = try #require(server.runningEngine as? LibWebSocketsEngineGroup)
        #expect(group.engines.allSatisfy { $0.acceptedConnections > 0 }, "\(group.engines.map(\.acceptedConnections))")
        await runOffPool {
            client.shutdown()
            server.stop(deadline: .zero)
        }
    }

    @Test func aPortInUseByAnotherServerIsRefused() async throws {
        defer { inBackground { [server] in server.stop(deadline: .zero) } }
        var configuration = HTTPServerConfiguration()
        configuration.port = server.port
        let single = HTTPServer(configuration: configuration, router: Router())
        // The group's listeners share the port among themselves only: a server without
        // SO_REUSEPORT cannot bind it.
        #expect(throws: HTTPServerError.self) { try single.start() }
    }
}
