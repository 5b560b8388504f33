import CBareHTTPPeer
import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Synchronization

/// The messenger server on loopback, each figure beside its ceiling measured in the same run:
/// envelopes routed with fan-out to three live devices and their send-to-delivery latency beside
/// the engine echoing frames of the same size; idle authenticated sockets and server memory per
/// socket (in a child process) beside the 16 KB goal; a 10,000-envelope mailbox drained on
/// reconnect beside the same echo.
struct MessengerServerBenchmark {
    let runs: Int
    let seconds: Int
    let sockets: Int
    /// `postgres://…`: also route on `PostgresMessengerStore` there.
    var database: String? = nil
    let senders = 16
    let drainCount = 10_000

    /// A device secret as the messenger client makes one: base64 of 32 bytes (fixed here, so a
    /// child process can sign in with it).
    static let password = "YmVuY2gtc2VjcmV0LTAxMjM0NTY3ODlhYmNkZWZnaGk="

    func run() throws {
        var routed: [Double] = [], p50: [Double] = [], p99: [Double] = [], echo: [Double] = []
        var bareEcho: [Double] = []
        var http: [Double] = [], httpP50: [Double] = []
        var drained: [Double] = [], postgres: [Double] = []
        for _ in 0..<runs {
            if let database {
                postgres.append(
                    try MessengerBenchServer.with(database: database) { server in
                        try self.route(server.api, overSockets: true)
                    }.envelopesPerSecond)
            }
            let result = try MessengerBenchServer.with { server in try self.route(server.api, overSockets: true) }
            routed.append(result.envelopesPerSecond)
            p50.append(result.p50)
            p99.append(result.p99)
            let overHTTP = try MessengerBenchServer.with { server in try self.route(server.api, overSockets: false) }
            http.append(overHTTP.envelopesPerSecond)
            httpP50.append(overHTTP.p50)
            drained.append(try MessengerBenchServer.with { server in try self.drain(server) })
            echo.append(try echoCeiling())
            bareEcho.append(try bareEchoCeiling())
        }
        print(
            "== messenger-server: \(senders) senders, each on its own socket, send PUT /v1/messages requests (one "
                + "at a time each) to one account with 3 devices on live sockets that ack everything; \(seconds) s; "
                + "SQLite synchronous=FULL with group commit; median of \(runs) runs ==")
        print(
            "   ceilings: the engine, and bare lws in C (Benchmarks/CBareHTTPPeer), echoing 512 B text frames on "
                + "16 sockets (WebSocketEchoLoad), same run")
        print(line("envelopes delivered", median(routed), "/s", median(echo), "engine echo round trips"))
        print(line("envelopes delivered", median(routed), "/s", median(echo) * 0.5, "goal: 0.5 × echo"))
        // The engine's echo moves with any change to the engine; the bare echo does not, so this
        // line says what the messenger's own work costs.
        print(line("envelopes delivered", median(routed), "/s", median(bareEcho), "bare lws echo round trips"))
        print(decimalLine("send → delivery p50", median(p50), "ms", median(p99), "p99"))
        print(line("same sends over HTTP", median(http), "/s", median(routed), "over the sockets"))
        print(decimalLine("send → delivery p50, HTTP", median(httpP50), "ms", median(p50), "over the sockets"))
        print(line("10,000-envelope drain", median(drained), "/s", median(echo), "engine echo round trips"))
        if database != nil {
            print(
                line(
                    "envelopes delivered, PostgreSQL", median(postgres), "/s", median(routed),
                    "the same on SQLite (goal ≥ 0.50×)"))
        }
        try idle()
    }

    /// One send per sender at a time; three devices ack everything; latency from before the PUT
    /// to the envelope's arrival on the first device. Senders talk to `server`, the receiving
    /// devices hold their sockets on `receivers` (the same by default).
    func route(_ server: MessengerBenchAPI, receivers: MessengerBenchAPI? = nil, overSockets: Bool) throws -> (
        envelopesPerSecond: Double, p50: Double, p99: Double
    ) {
        let receivers = receivers ?? server
        let (senders, seconds) = (self.senders, self.seconds)
        return try runBlocking {
            let client = HTTPClient(timeout: .seconds(30))
            let alice = try await server.register()
            var senderDevices: [MessengerBenchServer.Device] = []
            for _ in 0..<senders { senderDevices.append(try await server.register()) }
            let bob = try await receivers.register()
            var linked = [bob]
            for _ in 0..<2 { linked.append(try await receivers.link(to: bob)) }
            let devices = linked
            let sockets = try WebSocketClient()
            defer { sockets.shutdown() }
            let latencies = LatencyRecord()
            var readers: [Task<Void, Never>] = []
            for (index, device) in devices.enumerated() {
                let socket = try await receivers.connect(device, client: sockets)
                readers.append(
                    Task {
                        for await message in socket.inbound {
                            // Read as a device acks: only the frame's id, path and send time.
                            guard case .text(let text) = message, let id = DeliveryFrames.integer(after: "id", in: text)
                            else { continue }
                            try? socket.outbound.sendNow(.text("{\"type\":\"response\",\"id\":\(id),\"status\":200}"))
                            guard DeliveryFrames.contains(#""path":"/api/v1/message""#, in: text) else { continue }
                            latencies.delivered.add(1, ordering: .relaxed)
                            if index == 0, let sent = DeliveryFrames.integer(after: "timestamp", in: text) {
                                latencies.add(DispatchTime.now().uptimeNanoseconds - UInt64(sent))
                            }
                        }
                    })
            }
            let content = Base64.encode([UInt8](repeating: 7, count: 160))
            let envelopes = DeliveryFrames.envelopes(deviceIds: devices.map(\.deviceId), content: content)
            let start = DispatchTime.now().uptimeNanoseconds
            let end = start + UInt64(seconds) * 1_000_000_000
            var senderSockets: [WebSocket] = []
            if overSockets {
                for device in senderDevices {
                    let socket = try await server.connect(device, client: sockets)
                    var frames = socket.inbound.makeAsyncIterator()
                    _ = await frames.next()  // queue/empty
                    senderSockets.append(socket)
                }
            }
            let openSenders = senderSockets
            let senderCredentials = senderDevices.map(\.authorization)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for sender in 0..<senders {
                    group.addTask {
                        var frames = overSockets ? openSenders[sender].inbound.makeAsyncIterator() : nil
                        var requestId: Int64 = 0
                        while DispatchTime.now().uptimeNanoseconds < end {
                            if overSockets {
                                requestId += 1
                                let request = DeliveryFrames.send(
                                    id: requestId, account: bob.accountId, envelopes: envelopes,
                                    timestamp: DispatchTime.now().uptimeNanoseconds)
                                try await openSenders[sender].outbound.send(text: request)
                                guard case .text(let text)? = await frames?.next(),
                                    DeliveryFrames.contains(#""status":200"#, in: text)
                                else { throw BenchError("a send on the socket was not answered 200") }
                                continue
                            }
                            let body: JSONValue = [
                                "messages": .array(
                                    devices.map {
                                        [
                                            "destinationDeviceId": .int(Int64($0.deviceId)),
                                            "destinationRegistrationId": 1, "type": 1, "content": .string(content),
                                        ]
                                    }),
                                "conversationId": "bench", "clientMessageId": .string(UUID().uuidString),
                                "timestamp": .int(Int64(DispatchTime.now().uptimeNanoseconds)),
                            ]
                            let answer = try await client.sendJSON(
                                "PUT", server.baseURL + "/v1/messages/\(bob.accountId)", body,
                                headers: ["Authorization": senderCredentials[sender]])
                            guard answer.status == 200 else { throw BenchError("a send answered \(answer.status)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Let the last deliveries land, then count.
            try await Task.sleep(for: .milliseconds(500))
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            readers.forEach { $0.cancel() }
            _ = alice
            let samples = latencies.sorted()
            guard !samples.isEmpty else { throw BenchError("no envelope was delivered") }
            func percentile(_ p: Double) -> Double {
                Double(samples[min(samples.count - 1, Int(Double(samples.count) * p))]) / 1e6
            }
            return (Double(latencies.delivered.load(ordering: .relaxed)) / elapsed, percentile(0.5), percentile(0.99))
        }
    }

    /// 10,000 envelopes stored for an offline device, then one connection that acks each: the
    /// time until `queue/empty`.
    private func drain(_ server: MessengerBenchServer) throws -> Double {
        let count = drainCount
        return try runBlocking {
            let alice = try await server.register()
            let bob = try await server.register()
            let content = [UInt8](repeating: 7, count: 160)
            for index in 0..<count {
                let outcome = try server.store.send(
                    OutgoingMessage(
                        sourceAccount: alice.accountId, sourceDevice: 1, destinationAccount: bob.accountId,
                        conversationId: "drain", clientMessageId: "drain-\(index)", timestamp: 0,
                        envelopes: [
                            OutgoingEnvelope(
                                destinationDeviceId: 1, destinationRegistrationId: 1, type: 1, content: content)
                        ]), receivedAt: 0, expiresAt: Int64.max)
                guard case .stored = outcome else { throw BenchError("could not queue envelope \(index)") }
            }
            let sockets = try WebSocketClient()
            defer { sockets.shutdown() }
            let start = DispatchTime.now().uptimeNanoseconds
            let socket = try await server.connect(bob, client: sockets)
            var received = 0
            for await message in socket.inbound {
                guard case .text(let text) = message, let frame = try? JSONParser.parse(text),
                    let id = frame["id"]?.intValue
                else { continue }
                if frame["path"] == "/api/v1/queue/empty" { break }
                received += 1
                try await socket.outbound.send(text: "{\"type\":\"response\",\"id\":\(id),\"status\":200}")
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard received == count else { throw BenchError("the drain delivered \(received) of \(count)") }
            socket.outbound.close()
            return Double(count) / elapsed
        }
    }

    /// The engine's echo of 512-byte text frames on 16 sockets: the frames the delivery socket sends.
    private func echoCeiling() throws -> Double {
        // A task per socket, as the messenger's delivery socket has (the ceiling since the row was set).
        let server = try WebSocketBenchmark.startCourierServer(asTask: true)
        defer { _ = server.stop(deadline: .zero) }
        let load = WebSocketEchoLoad(sockets: 16, seconds: seconds, compression: false)
        return try load.run("ws://127.0.0.1:\(server.port)/echo", .text(String(repeating: "x", count: 512)))
            .roundTripsPerSecond
    }

    /// The same echo from the bare C server: a ceiling no change to Courier moves.
    private func bareEchoCeiling() throws -> Double {
        let port = bare_websocket_peer_start(0)
        guard port > 0 else { throw BenchError("the bare WebSocket server did not start") }
        defer { bare_websocket_peer_stop() }
        let load = WebSocketEchoLoad(sockets: 16, seconds: seconds, compression: false)
        return try load.run("ws://127.0.0.1:\(port)/echo", .text(String(repeating: "x", count: 512)))
            .roundTripsPerSecond
    }

    /// `sockets` devices connect with their credentials and stay idle; the server runs in a child
    /// process so its memory is its own.
    private func idle() throws {
        var perSocket: [Double] = [], held: [Double] = [], seconds: [Double] = []
        for _ in 0..<runs {
            let child = try MessengerIdleServerProcess(devices: sockets)
            defer { child.stop() }
            let before = child.residentBytes
            let port = child.port
            let count = sockets
            let (connected, elapsed, open) = try runBlocking { () -> (Int, Double, [WebSocket]) in
                let client = try WebSocketClient()
                let start = DispatchTime.now().uptimeNanoseconds
                var open: [WebSocket] = []
                var index = 0
                while index < count {
                    let batch = min(200, count - index)
                    let opened = try await withThrowingTaskGroup(of: WebSocket?.self) { group in
                        for i in index..<(index + batch) {
                            group.addTask {
                                let credentials = Base64.encode(
                                    Array("bench-\(i).1:\(MessengerServerBenchmark.password)".utf8))
                                let socket = try await client.connect(
                                    to: "ws://127.0.0.1:\(port)/v1/websocket",
                                    headers: [("Authorization", "Basic \(credentials)")])
                                var frames = socket.inbound.makeAsyncIterator()
                                guard case .text(let text)? = await frames.next(), text.contains("queue/empty") else {
                                    return nil
                                }
                                return socket
                            }
                        }
                        return try await group.reduce(into: [WebSocket]()) { if let socket = $1 { $0.append(socket) } }
                    }
                    open += opened
                    index += batch
                }
                return (open.count, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, open)
            }
            let after = child.residentBytes
            perSocket.append(Double(after - before) / Double(max(connected, 1)) / 1024)
            held.append(Double(connected))
            seconds.append(elapsed)
            withExtendedLifetime(open) {}
        }
        print(
            "== messenger-server idle: \(sockets) devices connect with HTTP Basic credentials (salted token "
                + "hashes), each gets queue/empty, then idle; server in a child process; median of \(runs) runs =="
        )
        print(line("authenticated sockets held", median(held), "", Double(sockets), "asked for"))
        print(decimalLine("server RSS per socket", median(perSocket), "KB", 16, "goal ≤ 16 KB"))
        print(String(format: "   connecting took %.1f s", median(seconds)))
    }
}

/// Send-to-delivery latencies gathered from reader tasks.
final class LatencyRecord: Sendable {
    private let samples = Mutex<[UInt64]>([])
    /// Envelopes delivered on any device.
    let delivered = Atomic<Int>(0)

    func add(_ nanoseconds: UInt64) { samples.withLock { $0.append(nanoseconds) } }

    func sorted() -> [UInt64] { samples.withLock { $0.sorted() } }
}
