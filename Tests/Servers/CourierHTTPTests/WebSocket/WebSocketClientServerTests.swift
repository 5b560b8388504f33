import CourierTesting
import Foundation
import Testing

@testable import CourierHTTP

/// Courier's WebSocket client against Courier's server, over `ws://` and `wss://` (a
/// certificate authority and server certificate made for the test with `openssl`).
@Suite(.timeLimit(.minutes(2)))
struct WebSocketClientServerTests {
    static let idleSockets = 500

    static func router() -> Router {
        var router = Router()
        router.webSocket("/echo") { socket, _, _ in
            for await message in socket.inbound { try await socket.outbound.send(message) }
        }
        router.webSocket(
            "/private",
            shouldUpgrade: { request, _ in
                guard request.header("authorization") == "Bearer right" else {
                    throw HTTPError(.init("unauthorized", status: 401), "no token")
                }
            }
        ) { socket, _, _ in try await socket.outbound.send(text: "welcome") }
        return router
    }

    static func start(tls: TestCertificates? = nil) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.tls = tls.map {
            HTTPServerTLS(certificateChainPath: $0.serverCertificate, privateKeyPath: $0.serverKey)
        }
        let server = HTTPServer(configuration: configuration, router: router())
        try server.start()
        return server
    }

    func next(_ socket: WebSocket) async -> WebSocketMessage? {
        var iterator = socket.inbound.makeAsyncIterator()
        return await iterator.next()
    }

    func finish(_ client: WebSocketClient, _ server: HTTPServer) async {
        await runOffPool {
            client.shutdown()
            server.stop(deadline: .zero)
        }
    }

    @Test func echoOverWS() async throws {
        let server = try Self.start()
        let client = try WebSocketClient()
        let socket = try await client.connect(to: "ws://127.0.0.1:\(server.port)/echo")
        try await socket.outbound.send(text: "hello")
        #expect(await next(socket) == .text("hello"))
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try await socket.outbound.send(.binary(bytes))
        #expect(await next(socket) == .binary(bytes))
        socket.outbound.close(.normalClosure, reason: "bye")
        #expect(await socket.closed().code == .normalClosure)
        await finish(client, server)
    }

    @Test func echoOverWSSWithTheTestAuthorityTrusted() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let server = try Self.start(tls: certificates)
        #expect(server.baseURL.hasPrefix("https://"))
        var trusting = WebSocketClientConfiguration()
        trusting.additionalTrustedCertificatesPath = certificates.caCertificate
        let client = try WebSocketClient(configuration: trusting)
        for host in ["127.0.0.1", "localhost"] {
            let socket = try await client.connect(to: "wss://\(host):\(server.port)/echo")
            try await socket.outbound.send(text: "over TLS to \(host)")
            #expect(await next(socket) == .text("over TLS to \(host)"))
            socket.outbound.close()
        }
        // Without the test authority, the same server is refused.
        let plain = try WebSocketClient()
        await #expect(throws: WebSocketError.self) {
            _ = try await plain.connect(to: "wss://127.0.0.1:\(server.port)/echo")
        }
        await runOffPool { plain.shutdown() }
        await finish(client, server)
    }

    @Test func aRefusedUpgradeReachesTheClientAsItsStatus() async throws {
        let server = try Self.start()
        let client = try WebSocketClient()
        let refused = try await client.connect(to: "ws://127.0.0.1:\(server.port)/private")
        let close = await refused.closed()
        #expect(close.code.refusedStatus == 401)
        #expect(close.reason == "unauthorized")
        let accepted = try await client.connect(
            to: "ws://127.0.0.1:\(server.port)/private", headers: [("Authorization", "Bearer right")])
        #expect(await next(accepted) == .text("welcome"))
        await finish(client, server)
    }

    @Test func idleSocketsAreHeldWhileAnotherIsAnswered() async throws {
        let server = try Self.start()
        let client = try WebSocketClient()
        var idle: [WebSocket] = []
        for _ in 0..<Self.idleSockets {
            idle.append(try await client.connect(to: "ws://127.0.0.1:\(server.port)/echo"))
        }
        let busy = try await client.connect(to: "ws://127.0.0.1:\(server.port)/echo")
        for index in 0..<20 {
            try await busy.outbound.send(text: "\(index)")
            #expect(await next(busy) == .text("\(index)"))
        }
        #expect(idle.allSatisfy { $0.closeInfo == nil })
        // One of the idle ones still answers.
        try await idle[Self.idleSockets / 2].outbound.send(text: "awake")
        #expect(await next(idle[Self.idleSockets / 2]) == .text("awake"))
        await finish(client, server)
    }

    /// Every socket's timers are due often here (pings each 200 ms, slow-reader checks): the
    /// engine checks them all on its tick. Each socket re-arming an lws timer of its own made lws
    /// walk its sorted list of every timer on each insertion: 50 echoes among 2,000 such sockets
    /// took 3.2 s instead of 0.03 s, and the loop stalled near 10,000 idle sockets
    /// (courier-bench websocket).
    @Test func aThousandSocketsWithBusyTimersKeepAnswering() async throws {
        var busy = WebSocketConfiguration()
        busy.pingIntervalMilliseconds = 200
        busy.slowReaderTimeoutMilliseconds = 100
        busy.idleTimeoutMilliseconds = 60_000
        var router = Router()
        router.webSocket("/echo", configuration: busy) { socket, _, _ in
            for await message in socket.inbound { try await socket.outbound.send(message) }
        }
        let server = try HTTPServer.started(router)
        let client = try WebSocketClient()
        var open: [WebSocket] = []
        // Each socket costs this process two files (client and server side), and the suites run
        // at once under one file limit (20,000 here): SlowClientTests alone takes 8,000.
        for _ in 0..<1_000 { open.append(try await client.connect(to: "ws://127.0.0.1:\(server.port)/echo")) }
        for index in 0..<50 {
            let socket = open[index * 20]
            try await socket.outbound.send(text: "\(index)")
            #expect(await next(socket) == .text("\(index)"))
        }
        #expect(open.allSatisfy { $0.closeInfo == nil })
        await finish(client, server)
    }

    @Test func stoppingTheServerClosesClientSocketsWith1001() async throws {
        let server = try Self.start()
        let client = try WebSocketClient()
        var sockets: [WebSocket] = []
        for index in 0..<10 {
            let socket = try await client.connect(to: "ws://127.0.0.1:\(server.port)/echo")
            // Answered: the upgrade has passed the middleware and the handler runs. (A socket
            // whose upgrade is still being checked when the server stops is refused with 4503.)
            try await socket.outbound.send(text: "\(index)")
            #expect(await next(socket) == .text("\(index)"))
            sockets.append(socket)
        }
        await server.shutdown(deadline: .seconds(5))
        for socket in sockets {
            #expect(await socket.closed() == WebSocketClose(.goingAway, reason: "server stopping"))
        }
        await runOffPool { client.shutdown() }
    }
}
