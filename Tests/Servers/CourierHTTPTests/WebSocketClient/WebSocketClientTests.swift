import CourierTesting
import Foundation
import Testing

@testable import CourierHTTP

/// The libwebsockets client against Python's `websockets` server (Tests/peers/websocket_peer.py).
@Suite(.timeLimit(.minutes(2)))
struct WebSocketClientTests {
    /// Runs `body` with a client, and shuts the client down (off the cooperative pool) after it.
    func withClient(
        _ configuration: WebSocketClientConfiguration = .init(), _ body: (WebSocketClient) async throws -> Void
    ) async throws {
        let client = try WebSocketClient(configuration: configuration)
        do {
            try await body(client)
        } catch {
            await runOffPool { client.shutdown() }
            throw error
        }
        await runOffPool { client.shutdown() }
    }

    func next(_ socket: WebSocket) async -> WebSocketMessage? {
        var iterator = socket.inbound.makeAsyncIterator()
        return await iterator.next()
    }

    func connectError(
        _ client: WebSocketClient, _ url: String, configuration: WebSocketConfiguration = .init()
    ) async -> WebSocketError? {
        do {
            let socket = try await client.connect(to: url, configuration: configuration)
            socket.outbound.close()
            return nil
        } catch {
            return error as? WebSocketError
        }
    }

    @Test func echoesTextAndBinaryOverWS() async throws {
        let peer = try await WebSocketPeer()
        try await withClient { client in
            let socket = try await client.connect(to: peer.url("/echo"))
            try await socket.outbound.send(text: "héllo")
            #expect(await next(socket) == .text("héllo"))
            try await socket.outbound.send(.binary([0, 1, 2, 255]))
            #expect(await next(socket) == .binary([0, 1, 2, 255]))
            // Empty messages, on a compressed connection, after others (lws 4.1.6 aborted on them).
            for message: WebSocketMessage in [.text(""), .binary([]), .text("after"), .text("")] {
                try await socket.outbound.send(message)
                #expect(await next(socket) == message)
            }
            socket.outbound.close()
            #expect(await socket.closed().code == .normalClosure)
        }
    }

    @Test func echoesOverWSSWithATrustedCertificate() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let peer = try await WebSocketPeer(certificates: certificates)
        var configuration = WebSocketClientConfiguration()
        configuration.additionalTrustedCertificatesPath = certificates.caCertificate
        try await withClient(configuration) { client in
            for host in ["127.0.0.1", "localhost"] {
                let socket = try await client.connect(to: peer.url("/echo", host: host))
                try await socket.outbound.send(text: "secret")
                #expect(await next(socket) == .text("secret"))
                try await socket.outbound.send(.binary(Array(repeating: 7, count: 70_000)))
                #expect(await next(socket) == .binary(Array(repeating: 7, count: 70_000)))
                socket.outbound.close()
                #expect(await socket.closed().code == .normalClosure)
            }
        }
    }

    @Test func anUntrustedCertificateFailsTheConnection() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let peer = try await WebSocketPeer(certificates: certificates)
        try await withClient { client in
            let error = await connectError(client, peer.url("/echo"))
            #expect(error?.code == .connectFailed, "\(String(describing: error))")
            #expect(error?.message.contains("unable to get local issuer certificate") == true)
        }
    }

    @Test func aCertificateForAnotherHostFailsTheConnection() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let peer = try await WebSocketPeer(certificates: certificates)
        var configuration = WebSocketClientConfiguration()
        configuration.additionalTrustedCertificatesPath = certificates.caCertificate
        try await withClient(configuration) { client in
            // The certificate names 127.0.0.1 and localhost; the name checked is the Host's.
            do {
                let socket = try await client.connect(to: peer.url("/echo"), headers: [("Host", "elsewhere.test")])
                socket.outbound.close()
                Issue.record("connected to a server whose certificate does not name elsewhere.test")
            } catch let error as WebSocketError {
                #expect(error.code == .connectFailed)
                #expect(error.message.contains("mismatch"), "\(error)")
            }
        }
    }

    @Test(arguments: [true, false])
    func largeMessagesGoBothWays(compression: Bool) async throws {
        let peer = try await WebSocketPeer(compression: compression)
        var configuration = WebSocketConfiguration()
        configuration.compression = compression
        try await withClient { client in
            let size = 300_000
            let pattern = (0..<size).map { UInt8($0 % 251) }
            let socket = try await client.connect(to: peer.url("/big?bytes=\(size)"), configuration: configuration)
            #expect(await next(socket) == .binary(pattern))
            var random = SystemRandomNumberGenerator()
            let noise = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
            try await socket.outbound.send(.binary(noise))
            #expect(await next(socket) == .binary(noise))
            let text = String(repeating: "abcdéfghij", count: 30_000)
            try await socket.outbound.send(.text(text))
            #expect(await next(socket) == .text(text))
            socket.outbound.close()
            #expect(await socket.closed().code == .normalClosure)
        }
    }

    @Test func aFragmentedMessageArrivesWhole() async throws {
        let peer = try await WebSocketPeer()
        try await withClient { client in
            let socket = try await client.connect(to: peer.url("/fragmented"))
            #expect(await next(socket) == .text("fragmented"))
            socket.outbound.close()
            _ = await socket.closed()
        }
    }

    @Test func aSlowReaderPausesThePeerAndLosesNothing() async throws {
        let peer = try await WebSocketPeer()
        var configuration = WebSocketConfiguration()
        configuration.maximumBufferedMessages = 4
        try await withClient { client in
            let socket = try await client.connect(to: peer.url("/burst?count=2000"), configuration: configuration)
            var iterator = socket.inbound.makeAsyncIterator()
            for index in 0..<2000 {
                let message = await iterator.next()
                guard message == .text(String(index)) else {
                    Issue.record("message \(index) was \(String(describing: message))")
                    break
                }
            }
            socket.outbound.close()
            #expect(await socket.closed().code == .normalClosure)
        }
    }

    @Test func aPeerThatDoesNotReadIsCutOffAsASlowReader() async throws {
        let peer = try await WebSocketPeer()
        var configuration = WebSocketConfiguration()
        configuration.maximumQueuedBytes = 64 * 1024
        configuration.slowReaderTimeoutMilliseconds = 200
        // Uncompressed, so every byte sent fills the peer's socket buffers.
        configuration.compression = false
        try await withClient { client in
            let socket = try await client.connect(to: peer.url("/silent"), configuration: configuration)
            let chunk = WebSocketMessage.binary(Array(repeating: 0x5A, count: 32 * 1024))
            var failure: WebSocketError?
            // Loopback buffers hold a few MB; 4,000 × 32 KB is far past them.
            for _ in 0..<4000 {
                do { try await socket.outbound.send(chunk) } catch {
                    failure = error as? WebSocketError
                    break
                }
            }
            #expect(failure?.code == .slowReader, "\(String(describing: failure))")
            #expect(await socket.closed().code == .policyViolation)
        }
    }

    @Test func anOversizedMessageClosesWith1009() async throws {
        let peer = try await WebSocketPeer()
        var configuration = WebSocketConfiguration()
        configuration.maximumMessageBytes = 1000
        try await withClient { client in
            let socket = try await client.connect(to: peer.url("/big?bytes=5000"), configuration: configuration)
            #expect(await next(socket) == nil)
            #expect(await socket.closed().code == .messageTooBig)
        }
    }

    @Test func textThatIsNotUTF8ClosesWith1007() async throws {
        let peer = try await WebSocketPeer()
        try await withClient { client in
            let socket = try await client.connect(to: peer.url("/bad-utf8"))
            #expect(await next(socket) == nil)
            #expect(await socket.closed().code == .invalidPayload)
        }
    }

    @Test func theServersCloseCodeAndReasonArrive() async throws {
        let peer = try await WebSocketPeer()
        try await withClient { client in
            let socket = try await client.connect(to: peer.url("/close?code=4000&reason=bye%20now"))
            #expect(await next(socket) == nil)
            #expect(await socket.closed() == WebSocketClose(WebSocketCloseCode(rawValue: 4000), reason: "bye now"))
            await #expect(throws: WebSocketError.self) { try await socket.outbound.send(text: "late") }
        }
    }

    @Test func theClientsCloseCodeReachesTheServer() async throws {
        let peer = try await WebSocketPeer()
        try await withClient { client in
            let id = UUID().uuidString
            let socket = try await client.connect(to: peer.url("/echo?id=\(id)"))
            try await socket.outbound.send(text: "before")
            #expect(await next(socket) == .text("before"))
            socket.outbound.close(WebSocketCloseCode(rawValue: 4001), reason: "done here")
            #expect(await next(socket) == nil)
            #expect(await socket.closed().code.rawValue == 4001)
            let report = try await client.connect(to: peer.url("/closed?id=\(id)"))
            #expect(await next(report) == .text("4001 done here"))
            report.outbound.close()
        }
    }

    @Test func customHeadersOriginAndHostArrive() async throws {
        let peer = try await WebSocketPeer()
        try await withClient { client in
            let socket = try await client.connect(
                to: peer.url("/headers?x=1"),
                headers: [
                    ("Authorization", "Bearer token-123"), ("X-Trace", "a b"), ("X-Trace", "c"),
                    ("Origin", "https://app.example"),
                ])
            guard case .text(let json) = await next(socket) else {
                Issue.record("no header report")
                return
            }
            let pairs = try JSONDecoder().decode([[String]].self, from: Data(json.utf8))
            func values(_ name: String) -> [String] {
                pairs.filter { $0[0].lowercased() == name }.map { $0[1] }
            }
            #expect(values("authorization") == ["Bearer token-123"])
            #expect(values("x-trace") == ["a b", "c"])
            #expect(values("origin") == ["https://app.example"])
            #expect(values("host") == ["127.0.0.1:\(peer.port)"])
            socket.outbound.close()
        }
    }

    @Test func headersThatWouldBreakTheHandshakeAreRefused() async throws {
        // Refused before any connection, each with its reason: the port is held closed, so a
        // handshake that went out would fail differently.
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        try await withClient { client in
            for (headers, reason) in [
                ([("X-Bad", "a\r\nInjected: 1")], "contains CR, LF or NUL"),
                ([("Bad Name", "v")], "is not a valid header name"),
                ([("Upgrade", "h2c")], "is set by the WebSocket handshake itself"),
            ] {
                await #expect {
                    _ = try await client.connect(to: "ws://127.0.0.1:\(down.port)/", headers: headers)
                } throws: { error in
                    (error as? WebSocketError)?.message.contains(reason) == true
                }
            }
        }
    }

    @Test(arguments: [true, false])
    func compressionIsNegotiatedOnlyWhenAskedFor(compression: Bool) async throws {
        let peer = try await WebSocketPeer()
        var configuration = WebSocketConfiguration()
        configuration.compression = compression
        try await withClient { client in
            let socket = try await client.connect(to: peer.url("/extensions"), configuration: configuration)
            #expect(await next(socket) == .text(compression ? "[\"permessage-deflate\"]" : "[]"))
            try await socket.outbound.send(text: String(repeating: "squeeze me ", count: 1000))
            #expect(await next(socket) == .text(String(repeating: "squeeze me ", count: 1000)))
            socket.outbound.close()
        }
    }

    @Test func aRefusedConnectionFailsWithConnectFailed() async throws {
        let holder = try SilentListener(listening: false)
        try await withClient { client in
            let error = await connectError(client, "ws://127.0.0.1:\(holder.port)/")
            #expect(error?.code == .connectFailed, "\(String(describing: error))")
        }
    }

    @Test func aStatusOtherThan101FailsWithConnectFailed() async throws {
        let peer = try await WebSocketPeer()
        try await withClient { client in
            let error = await connectError(client, peer.url("/reject"))
            #expect(error?.code == .connectFailed, "\(String(describing: error))")
            #expect(error?.message.contains("403") == true)
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let listener = try SilentListener()
        var configuration = WebSocketConfiguration()
        configuration.connectTimeoutMilliseconds = 300
        try await withClient { client in
            let started = ContinuousClock.now
            let error = await connectError(client, "ws://127.0.0.1:\(listener.port)/", configuration: configuration)
            #expect(error?.code == .timedOut, "\(String(describing: error))")
            // Not before the deadline; the upper bound only rules out lws's own 300 s handshake
            // timeout deciding instead (a loaded machine may be seconds late).
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    @Test func cancellingTheConnectingTaskEndsTheConnection() async throws {
        let listener = try SilentListener()
        try await withClient { client in
            let task = Task { try await client.connect(to: "ws://127.0.0.1:\(listener.port)/") }
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }

    @Test func aPeerThatStopsAnsweringPingsIsClosedWhenIdle() async throws {
        let peer = try await WebSocketPeer()
        var configuration = WebSocketConfiguration()
        configuration.pingIntervalMilliseconds = 100
        configuration.idleTimeoutMilliseconds = 500
        try await withClient { client in
            // Measured from before the handshake, which resets the idle clock.
            let started = ContinuousClock.now
            let socket = try await client.connect(to: peer.url("/silent"), configuration: configuration)
            let close = await socket.closed()
            #expect(close == WebSocketClose(.goingAway, reason: "idle timeout"))
            #expect(ContinuousClock.now - started >= .milliseconds(500))
        }
    }

    @Test func pingsKeepAnAnsweringPeerOpen() async throws {
        let peer = try await WebSocketPeer()
        var configuration = WebSocketConfiguration()
        configuration.pingIntervalMilliseconds = 100
        configuration.idleTimeoutMilliseconds = 400
        try await withClient { client in
            let socket = try await client.connect(to: peer.url("/echo"), configuration: configuration)
            // Idle in data for three idle timeouts; the peer's pongs keep it open.
            try await Task.sleep(for: .milliseconds(1200))
            #expect(socket.closeInfo == nil)
            try await socket.outbound.send(text: "still here")
            #expect(await next(socket) == .text("still here"))
            socket.outbound.close()
        }
    }

    @Test func twoHundredConnectionsShareOneClient() async throws {
        let peer = try await WebSocketPeer()
        try await withClient { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let socket = try await client.connect(to: peer.url("/echo"))
                        for round in 0..<3 {
                            try await socket.outbound.send(text: "\(index).\(round)")
                            #expect(await next(socket) == .text("\(index).\(round)"))
                        }
                        socket.outbound.close()
                        #expect(await socket.closed().code == .normalClosure)
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test func shutdownClosesOpenSocketsWith1001AndRefusesNewOnes() async throws {
        let peer = try await WebSocketPeer()
        let client = try WebSocketClient()
        let sockets = try await (0..<3).asyncMap { _ in try await client.connect(to: peer.url("/echo")) }
        await runOffPool { client.shutdown() }
        for socket in sockets {
            #expect(await socket.closed().code == .goingAway)
        }
        await #expect(throws: WebSocketError.self) { _ = try await client.connect(to: peer.url("/echo")) }
        await runOffPool { client.shutdown() }
    }

    @Test func anInvalidURLIsRefusedBeforeConnecting() async throws {
        try await withClient { client in
            for url in ["http://127.0.0.1/", "ws:///nohost", "not a url", "ws://127.0.0.1/#frag"] {
                let error = await connectError(client, url)
                #expect(error?.code == .invalidURL, "\(url): \(String(describing: error))")
            }
        }
    }
}

extension Range where Bound == Int {
    fileprivate func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for value in self { results.append(try await transform(value)) }
        return results
    }
}
