import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

@Suite struct DeliverySocketTests {
    /// Answers a delivery request as a device does: a 200 response acknowledges it.
    static func ack(_ frame: JSONValue?, on socket: WebSocket) async throws {
        let id = try #require(frame?["id"]?.intValue)
        try await socket.outbound.send(text: "{\"type\":\"response\",\"id\":\(id),\"status\":200}")
    }

    @Test(arguments: StoreBackend.allCases) func theMailboxArrivesInOrderThenQueueEmptyThenNewEnvelopesLive(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend) { $0.sendRate = nil }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        for index in 0..<5 {
            _ = try await harness.send(
                from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "m\(index)")
        }
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await harness.connect(bob, client: client)
        var reader = DeliveryReader(socket)
        for index in 0..<5 {
            let frame = await reader.next()
            #expect(frame?["type"] == "request")
            #expect(frame?["path"] == "/api/v1/message")
            #expect(frame?.envelopeContent == "m\(index) for 1")
            #expect(frame?["body"]?["serverSeq"]?.intValue == Int64(index + 1))
            try await Self.ack(frame, on: socket)
        }
        #expect(await reader.next()?["path"] == "/api/v1/queue/empty")
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "live")
        let live = await reader.next()
        #expect(live?.envelopeContent == "live for 1")
        try await Self.ack(live, on: socket)
        // Acks delete: a catch-up after the last ack finds nothing. The ack of `live` travels on
        // the socket while this request goes over HTTP, so the test waits for it to land.
        let emptied = await poll {
            (try? harness.store.mailbox(accountId: bob.accountId, deviceId: 1, afterId: 0, limit: 10))?.isEmpty == true
        }
        #expect(emptied)
    }

    @Test(arguments: StoreBackend.allCases) func anUnacknowledgedEnvelopeIsDeliveredAgainOnTheNextConnection(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "first")
        _ = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "second")
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        do {
            let socket = try await harness.connect(bob, client: client)
            var reader = DeliveryReader(socket)
            let first = await reader.next()
            #expect(first?.envelopeContent == "first for 1")
            try await Self.ack(first, on: socket)
            #expect(await reader.next()?.envelopeContent == "second for 1")  // never acknowledged
            #expect(await reader.next()?["path"] == "/api/v1/queue/empty")
            socket.outbound.close()
            _ = await socket.closed()
        }
        #expect(await poll { harness.messenger.liveSockets == 0 })
        let again = try await harness.connect(bob, client: client)
        var reader = DeliveryReader(again)
        #expect(await reader.next()?.envelopeContent == "second for 1")
        #expect(await reader.next()?["path"] == "/api/v1/queue/empty")
    }

    /// Acks wait for their batch; stopping the server deletes the ones still waiting, and so does
    /// the end of the socket that sent them (before its mailbox is looked at for a push).
    @Test func acksStillWaitingForTheirBatchAreDeletedAtShutdownOrWhenTheSocketEnds() async throws {
        // A batch interval no test run reaches: only the shutdown or the socket's end deletes.
        let harness = try await MessengerHarness(backend: .sqlite) {
            $0.sendRate = nil
            $0.ackBatchInterval = .seconds(3_600)
        }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let mailbox = { try harness.store.mailbox(accountId: bob.accountId, deviceId: 1, afterId: 0, limit: 10) }
        let socket = try await harness.connect(bob, client: client)
        var reader = DeliveryReader(socket)
        #expect(await reader.next()?["path"] == "/api/v1/queue/empty")
        for (round, content) in ["m", "n"].enumerated() {
            _ = try await harness.send(
                from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: content)
            let envelope = await reader.next()
            #expect(envelope?.envelopeContent == "\(content) for 1")
            try await Self.ack(envelope, on: socket)
            // Frames are handled in order: once this is answered, the ack is recorded.
            _ = try await SocketRequestTests.request(
                Int64(100 + round), "GET", "/v1/keepalive", on: socket, reader: &reader)
            #expect(try mailbox().count == 1)
            if round == 0 {
                harness.messenger.shutdown()
            } else {
                socket.outbound.close()
                _ = await socket.closed()
                #expect(
                    await poll {
                        harness.messenger.metricsText().contains("courier_messenger_sockets_ended_total 1")
                    })
            }
            #expect(try mailbox().isEmpty)
        }
        #expect(harness.messenger.metricsText().contains("courier_messenger_sockets_ended_unread_total 0"))
    }

    @Test(arguments: StoreBackend.allCases) func aSecondConnectionReplacesTheFirst(backend: StoreBackend) async throws {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let bob = try await harness.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let first = try await harness.connect(bob, client: client)
        var firstReader = DeliveryReader(first)
        #expect(await firstReader.next()?["path"] == "/api/v1/queue/empty")
        let second = try await harness.connect(bob, client: client)
        var secondReader = DeliveryReader(second)
        #expect(await secondReader.next()?["path"] == "/api/v1/queue/empty")
        let closed = await first.closed()
        #expect(closed.code.rawValue == 4409)
        #expect(harness.messenger.liveSockets == 1)
    }

    @Test(arguments: StoreBackend.allCases) func wrongCredentialsRefuseTheSocket(backend: StoreBackend) async throws {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let bob = try await harness.register()
        let impostor = try TestDevice(name: "impostor")
        impostor.accountId = bob.accountId
        impostor.deviceId = 1
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await harness.connect(impostor, client: client)
        let closed = await socket.closed()
        #expect(closed.code.rawValue == 4401)
        // Signal's query-string login works too. The password is base64: escaped, or a `+` in it
        // would arrive as a space.
        let password = try #require(bob.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let query = try await client.connect(
            to: "ws://127.0.0.1:\(harness.server.port)/v1/websocket?login=\(bob.accountId).1&password=\(password)")
        var reader = DeliveryReader(query)
        #expect(await reader.next()?["path"] == "/api/v1/queue/empty")
    }

    /// The head of the answer to a WebSocket upgrade of `path` that offers `permessage-deflate`,
    /// lowercased.
    static func upgradeOfferingCompression(port: Int, path: String, authorization: String?) async throws -> String? {
        try await offPool { () throws -> String? in
            let socket = try RawSocket(port: port)
            try socket.send(
                "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                    + (authorization.map { "Authorization: \($0)\r\n" } ?? "") + "\r\n")
            return socket.readResponse()?.head.lowercased()
        }
    }

    /// Ciphertext in base64 barely compresses, and the engine's deflate sets zlib up per message:
    /// the delivery socket declines `permessage-deflate` even when the client offers it.
    @Test func theDeliverySocketDeclinesCompression() async throws {
        let harness = try await MessengerHarness(backend: .sqlite)
        defer { harness.stop() }
        let bob = try await harness.register()
        let port = harness.server.port
        let upgraded = try #require(
            try await Self.upgradeOfferingCompression(
                port: port, path: "/v1/websocket", authorization: bob.authorization))
        #expect(upgraded.hasPrefix("http/1.1 101"))
        #expect(!upgraded.contains("sec-websocket-extensions"))
        // The same offer on the provisioning socket, which keeps the default, is accepted: the
        // offer itself is one the engine takes.
        let control = try await Self.upgradeOfferingCompression(
            port: port, path: "/v1/websocket/provisioning", authorization: nil)
        #expect(try #require(control).contains("sec-websocket-extensions: permessage-deflate"))
    }

    @Test(arguments: StoreBackend.allCases) func aMailboxLargerThanTheWindowFlowsAsAcksComeBack(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness.withWindowOfFour(backend: backend)
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        for index in 0..<10 {
            _ = try await harness.send(
                from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "w\(index)")
        }
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await harness.connect(bob, client: client)
        var reader = DeliveryReader(socket)
        var contents: [String] = []
        while contents.count < 10 {
            guard let frame = await reader.next() else { break }
            #expect(frame["path"] == "/api/v1/message", "queue empty came before the whole mailbox")
            contents.append(frame.envelopeContent ?? "")
            try await Self.ack(frame, on: socket)
        }
        #expect(contents == (0..<10).map { "w\($0) for 1" })
        #expect(await reader.next()?["path"] == "/api/v1/queue/empty")
    }
}
