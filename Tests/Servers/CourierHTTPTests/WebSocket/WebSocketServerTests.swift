import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Synchronization
import Testing

/// WebSocket routes on the libwebsockets engine, against Python's `websockets` (an independent
/// client) and a frame-by-frame raw client for what well-behaved clients never send.
@Suite(.timeLimit(.minutes(2)))
struct WebSocketServerTests {
    /// What the server's handlers saw, for the tests to check.
    final class Observed: Sendable {
        let closes = Mutex<[String: WebSocketClose]>([:])
        let sendErrors = Mutex<[String: WebSocketError]>([:])
        let registered = Mutex<[WebSocket]>([])
        let ended = DispatchSemaphore(value: 0)
        let registeredOne = DispatchSemaphore(value: 0)

        func record(_ name: String, _ close: WebSocketClose) {
            closes.withLock { $0[name] = close }
            ended.signal()
        }
    }

    let server: HTTPServer
    let observed = Observed()

    init() throws {
        let observed = observed
        var router = Router()
        router.webSocket("/echo") { socket, _, _ in
            for await message in socket.inbound { try await socket.outbound.send(message) }
        }
        var plain = WebSocketConfiguration()
        plain.compression = false
        router.webSocket("/echo-plain", configuration: plain) { socket, _, _ in
            for await message in socket.inbound { try await socket.outbound.send(message) }
        }
        router.webSocket("/rooms/{room}/headers") { socket, request, context in
            try await socket.outbound.send(
                text:
                    "\(request.pathParameters["room"] ?? "") \(request.header("authorization") ?? "-") \(context.route ?? "")"
            )
            socket.outbound.close(.normalClosure, reason: "done")
        }
        router.webSocket(
            "/private",
            shouldUpgrade: { request, _ in
                guard request.header("authorization") == "Bearer right" else {
                    throw HTTPError(.forbidden, "wrong token")
                }
            }
        ) { socket, _, _ in try await socket.outbound.send(text: "welcome") }
        router.webSocket("/small", configuration: Self.small()) { socket, _, _ in
            for await message in socket.inbound { try await socket.outbound.send(message) }
            observed.record("small", await socket.closed())
        }
        router.webSocket("/idle", configuration: Self.small()) { socket, _, _ in
            observed.record("idle", await socket.closed())
        }
        var flood = Self.small()
        // The flooded client reads nothing, so it answers no ping either: only the slow-reader
        // rule may close it.
        flood.idleTimeoutMilliseconds = 60_000
        flood.pingIntervalMilliseconds = 30_000
        router.webSocket("/flood", configuration: flood) { socket, _, _ in
            do {
                while true { try await socket.outbound.send(.binary([UInt8](repeating: 7, count: 32 * 1024))) }
            } catch let error as WebSocketError {
                observed.sendErrors.withLock { $0["flood"] = error }
            }
            observed.record("flood", await socket.closed())
        }
        router.webSocket("/throws") { _, _, _ in throw HTTPError(.badRequest, "nope") }
        router.webSocket("/register") { socket, _, _ in
            observed.registered.withLock { $0.append(socket) }
            observed.registeredOne.signal()
            observed.record("register", await socket.closed())
        }
        router.add(.get, "/plain") { request in .text("plain \(request.header("upgrade") ?? "-")") }
        router.add(.post, "/broadcast") { request in
            let text = String(decoding: request.body, as: UTF8.self)
            for socket in observed.registered.withLock({ $0 }) { try? socket.outbound.sendNow(.text(text)) }
            return HTTPResponse(status: .noContent)
        }
        server = try HTTPServer.started(router)
    }

    /// Tight limits and timers, so the tests see them act quickly.
    static func small(compression: Bool = true) -> WebSocketConfiguration {
        var configuration = WebSocketConfiguration()
        configuration.maximumMessageBytes = 1000
        configuration.maximumQueuedBytes = 64 * 1024
        configuration.slowReaderTimeoutMilliseconds = 300
        configuration.pingIntervalMilliseconds = 100
        configuration.idleTimeoutMilliseconds = 400
        configuration.compression = compression
        return configuration
    }

    func stop() { inBackground { [server] in server.stop(deadline: .zero) } }

    /// Runs the Python client; its one JSON line.
    func python(_ path: String, _ scenario: String, _ extra: [String] = []) async throws -> JSONValue {
        let python = try WebSocketPeer.python()
        let script = WebSocketPeer.packageRoot.appendingPathComponent("Tests/peers/websocket_client_peer.py").path
        let url = "ws://127.0.0.1:\(server.port)\(path)"
        let (status, output, errors) = await runOffPool { () -> (Int32, String, String) in
            do {
                let outcome = try ChildProcess.run(python, [script, url, scenario] + extra)
                return (outcome.status, outcome.output, outcome.errorOutput)
            } catch { return (-1, "", "\(error)") }
        }
        try #require(status == 0, "python client failed: \(errors)")
        return try JSONParser.parse(output)
    }

    @Test func echoesTextBinaryFragmentedAndLargeMessagesToAnIndependentClient() async throws {
        defer { stop() }
        for path in ["/echo", "/echo-plain"] {
            let result = try await python(path, "echo")
            #expect(result["text"] == "héllo")
            #expect(result["binary_ok"] == true)
            #expect(result["fragmented"] == "fragmented message")
            #expect(result["large_ok"] == true)
            // Empty after others: lws 4.1.6 would abort on it with a deflate context kept.
            #expect(result["empty"] == "")
            // The client closed normally after its last message.
            #expect(result["close_code"] == 1000)
        }
    }

    @Test func permessageDeflateIsNegotiatedWhereTheRouteAllowsIt() async throws {
        defer { stop() }
        #expect(try await python("/echo", "open")["extensions"] == ["PerMessageDeflate"])
        #expect(try await python("/echo-plain", "open")["extensions"] == [])
    }

    @Test func theHandlerGetsPathParametersHeadersAndItsRoute() async throws {
        defer { stop() }
        let result = try await python("/rooms/blue/headers", "close", ["--header", "Authorization:Bearer abc"])
        #expect(result["received"] == ["blue Bearer abc /rooms/{room}/headers"])
        #expect(result["close_code"] == 1000)
        #expect(result["close_reason"] == "done")
    }

    @Test func aRefusedUpgradeClosesWith4000PlusTheStatus() async throws {
        defer { stop() }
        let refused = try await python("/private", "close", ["--header", "Authorization:Bearer wrong"])
        #expect(refused["close_code"] == 4403)
        #expect(refused["close_reason"] == "forbidden")
        let accepted = try await python("/private", "close", ["--header", "Authorization:Bearer right"])
        #expect(accepted["received"] == ["welcome"])
        // A path with no WebSocket route is refused before the handshake, as plain HTTP.
        let unknown = try await python("/nowhere", "close")
        #expect(unknown["handshake_status"] == 404)
    }

    /// A WebSocket upgrade on a path with no WebSocket route is answered as plain HTTP by the
    /// route there (or 404), not with a 101 and a close whose code carries the route's status:
    /// a page on any site can open a WebSocket with its visitor's cookies, and those codes told it
    /// what the visitor's `GET` routes answered. The handler still sees the `Upgrade` header.
    @Test(arguments: [
        ("/plain", 200, "plain websocket"), ("/nowhere", 404, nil), ("/broadcast", 405, nil), ("/echo", 101, nil),
        ("/echo?room=1", 101, nil), ("/rooms/a%20b/headers", 101, nil),
    ])
    func anUpgradeToAPathWithoutAWebSocketRouteIsAnsweredAsHTTP(path: String, status: Int, body: String?) async throws {
        defer { stop() }
        let port = server.port
        let answer = await runOffPool { () -> (status: Int, head: String, body: [UInt8])? in
            guard let socket = try? RawSocket(port: port) else { return nil }
            try? socket.send(
                "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            return socket.readResponse()
        }
        #expect(answer?.status == status)
        if let body { #expect(answer.map { String(decoding: $0.body, as: UTF8.self) } == body) }
    }

    /// After an upgrade answered as HTTP the connection carries on: a plain request, then a
    /// real upgrade, are served on it.
    @Test func aConnectionWhoseUpgradeWasDeclinedServesItsNextRequests() async throws {
        defer { stop() }
        let port = server.port
        let upgrade =
            "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Version: 13\r\n"
        let answers = await runOffPool { () -> [(status: Int, head: String, body: [UInt8])?] in
            guard let socket = try? RawSocket(port: port) else { return [] }
            var answers: [(status: Int, head: String, body: [UInt8])?] = []
            for request in [
                "GET /plain HTTP/1.1\r\nHost: x\r\n\(upgrade)\r\n", "GET /plain HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /echo HTTP/1.1\r\nHost: x\r\n\(upgrade)\r\n",
            ] {
                try? socket.send(request)
                answers.append(socket.readResponse())
            }
            return answers
        }
        #expect(answers.map { $0?.status } == [200, 200, 101])
        #expect(
            answers.map { $0.map { String(decoding: $0.body, as: UTF8.self) } } == ["plain websocket", "plain -", ""])
    }

    @Test func aHandlerThatThrowsClosesWith1011AndAClientCloseReachesTheServer() async throws {
        defer { stop() }
        #expect(try await python("/throws", "close")["close_code"] == 1011)
        let result = try await python("/small", "closeself")
        #expect(result["close_code"] == 4000)
        #expect(await waitOffPool(observed.ended))
        #expect(
            observed.closes.withLock { $0["small"] }
                == WebSocketClose(WebSocketCloseCode(rawValue: 4000), reason: "client done"))
    }

    @Test func aPlainGetOnAWebSocketRouteIsAnswered426() async throws {
        defer { stop() }
        let answer = await runOffPool { [port = server.port] () -> Int? in
            guard let socket = try? RawSocket(port: port) else { return nil }
            try? socket.send("GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return socket.readResponse()?.status
        }
        #expect(answer == 426)
    }

    @Test func fragmentsAreReassembledAndAnOversizedMessageClosesWith1009() async throws {
        defer { stop() }
        let port = server.port
        let (echo, close) = try await runOffPool {
            () -> Result<(RawWebSocket.Frame?, RawWebSocket.Frame?), RawSocket.Failure> in
            do {
                let socket = try RawWebSocket(port: port, path: "/small")
                try socket.send(opcode: 1, Array("ab".utf8), fin: false)
                try socket.send(opcode: 9, [])  // a ping between fragments
                try socket.send(opcode: 0, Array("cd".utf8), fin: true)
                // The answer to the ping comes first.
                let pong = socket.readNonPing()
                let echo = pong?.opcode == 10 ? socket.readNonPing() : pong
                // 600 + 600 bytes in two fragments: over the 1,000-byte limit only once reassembled.
                try socket.send(opcode: 2, [UInt8](repeating: 1, count: 600), fin: false)
                try socket.send(opcode: 0, [UInt8](repeating: 2, count: 600), fin: true)
                return .success((echo, socket.readNonPing()))
            } catch let failure as RawSocket.Failure { return .failure(failure) } catch {
                return .failure(RawSocket.Failure(description: "\(error)"))
            }
        }.get()
        #expect(echo == RawWebSocket.Frame(opcode: 1, fin: true, payload: Array("abcd".utf8)))
        #expect(close?.opcode == 8)
        #expect(close?.closeCode == 1009)
        #expect(await waitOffPool(observed.ended))
        #expect(observed.closes.withLock { $0["small"] }?.code == .messageTooBig)
    }

    @Test func invalidUTF8TextClosesWith1007() async throws {
        defer { stop() }
        let port = server.port
        let close = await runOffPool { () -> RawWebSocket.Frame? in
            guard let socket = try? RawWebSocket(port: port, path: "/echo") else { return nil }
            try? socket.send(opcode: 1, [0x68, 0xC3, 0x28])
            return socket.readNonPing()
        }
        #expect(close?.opcode == 8)
        #expect(close?.closeCode == 1007)
    }

    @Test func aPeerThatNeverAnswersPingsIsClosedWhenIdle() async throws {
        defer { stop() }
        let port = server.port
        let frames = await runOffPool { () -> [RawWebSocket.Frame] in
            guard let socket = try? RawWebSocket(port: port, path: "/idle") else { return [] }
            var frames: [RawWebSocket.Frame] = []
            while let frame = socket.readFrame() {
                frames.append(frame)
                if frame.opcode == 8 { break }
            }
            return frames
        }
        #expect(frames.contains { $0.opcode == 9 }, "a ping went out before the idle close")
        #expect(frames.last?.opcode == 8)
        #expect(frames.last?.closeCode == 1001)
        #expect(await waitOffPool(observed.ended))
        #expect(observed.closes.withLock { $0["idle"] } == WebSocketClose(.goingAway, reason: "idle"))
    }

    @Test func aPeerThatAnswersPingsStaysOpenPastTheIdleTimeout() async throws {
        defer { stop() }
        let port = server.port
        let echo = await runOffPool { () -> RawWebSocket.Frame? in
            guard let socket = try? RawWebSocket(port: port, path: "/small") else { return nil }
            // Answers pings for about three idle timeouts (pings come every 100 ms).
            var pongs = 0
            while pongs < 12, let frame = socket.readFrame(), frame.opcode == 9 {
                try? socket.send(opcode: 10, frame.payload)
                pongs += 1
            }
            try? socket.send(text: "still here")
            return socket.readNonPing()
        }
        #expect(echo?.payload == Array("still here".utf8))
    }

    @Test func aSlowReaderIsCutOffAndItsSenderLearnsWhy() async throws {
        defer { stop() }
        let port = server.port
        let opened = await runOffPool { () -> RawWebSocket? in try? RawWebSocket(port: port, path: "/flood") }
        // The client reads nothing: the kernel's buffers fill, then the server's queue, then the
        // sender waits past the slow-reader timeout.
        #expect(await waitOffPool(observed.ended))
        #expect(observed.sendErrors.withLock { $0["flood"] }?.code == .slowReader)
        #expect(observed.closes.withLock { $0["flood"] }?.code == .policyViolation)
        withExtendedLifetime(opened) {}
    }

    @Test func anyTaskMaySendToASocket() async throws {
        defer { stop() }
        let port = server.port
        let observed = observed
        let (status, frame) = await runOffPool { () -> (Int?, RawWebSocket.Frame?) in
            guard let socket = try? RawWebSocket(port: port, path: "/register") else { return (nil, nil) }
            observed.registeredOne.wait()
            // Another request's task sends to the socket.
            guard let poster = try? RawSocket(port: port) else { return (nil, nil) }
            try? poster.send("POST /broadcast HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
            let status = poster.readResponse()?.status
            return (status, socket.readNonPing())
        }
        #expect(status == 204)
        #expect(frame == RawWebSocket.Frame(opcode: 1, payload: Array("hello".utf8)))
    }

    @Test func stoppingTheServerClosesOpenSocketsWith1001() async throws {
        let port = server.port
        let sockets = await runOffPool { () -> [RawWebSocket] in
            (0..<5).compactMap { index in
                // Echoed: the upgrade has passed the middleware and the handler runs. (A socket
                // whose upgrade is still being checked when the server stops is refused with 4503.)
                guard let socket = try? RawWebSocket(port: port, path: "/echo"),
                    (try? socket.send(text: "\(index)")) != nil,
                    socket.readNonPing()?.payload == Array("\(index)".utf8)
                else { return nil }
                return socket
            }
        }
        #expect(sockets.count == 5)
        let server = server
        let closes = await runOffPool { () -> [UInt16?] in
            let stopped = DispatchSemaphore(value: 0)
            inBackground {
                server.stop(deadline: .seconds(5))
                stopped.signal()
            }
            let codes = sockets.map { socket in
                let code = socket.readNonPing()?.closeCode
                try? socket.send(opcode: 8, [0x03, 0xE9])  // the close handshake's answer
                return code
            }
            stopped.wait()
            return codes
        }
        #expect(closes == Array(repeating: 1001, count: 5))
    }
}
