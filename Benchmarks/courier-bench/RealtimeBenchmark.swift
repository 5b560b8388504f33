import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Realtime
import Synchronization

/// `courier-bench realtime`: many `RealtimeConnection`s reconnecting after the messenger server
/// restarts, with full jitter beside a fixed 1 s delay in the same run (connection attempts
/// counted by a TCP proxy in front of the server, not by the clients), and the outbox's
/// acknowledged messages per second through a live socket beside the same frames on a bare socket.
struct RealtimeBenchmark {
    let runs: Int
    let clients: Int
    /// The jitter cap, in seconds.
    let cap: Int
    /// How long the server stays down during a restart, in seconds.
    let downtime: Int
    let messages = 2_000
    let inFlight = OutboxPolicy().maximumInFlight

    /// One recovery from a restart.
    struct Recovery: Sendable {
        /// From the server's stop to the last client live again.
        var seconds: Double
        /// The most attempts accepted by the proxy in any 1-second window.
        var peak: Double
        /// Attempts accepted by the proxy from the restart to the last client live.
        var attempts: Double
        /// The same attempts as counted by the clients themselves.
        var clientAttempts: Double
    }

    /// The reconnect policies compared.
    enum Reconnect: CaseIterable {
        case fixed, jitterAtCap, jitterGrowing

        func policy(cap: Int) -> ConnectionPolicy {
            var policy = ConnectionPolicy()
            switch self {
            case .fixed: policy.fixedReconnectDelay = .seconds(1)
            case .jitterAtCap: policy.backoff = Backoff(base: .seconds(cap), cap: .seconds(cap))
            case .jitterGrowing: policy.backoff = Backoff(base: .seconds(1), cap: .seconds(cap))
            }
            return policy
        }
    }

    struct RunResult: Sendable {
        var recoveries: [Recovery]
        var outbox: Double
        var bare: Double
    }

    func run() throws {
        var results: [RunResult] = []
        for _ in 0..<runs { results.append(try runBlocking { try await self.oneRun() }) }
        func figure(_ index: Int, _ field: KeyPath<Recovery, Double>) -> Double {
            median(results.map { $0.recoveries[index][keyPath: field] })
        }
        let (fixed, atCap, growing) = (0, 1, 2)
        print(
            "== realtime: \(clients) RealtimeConnections in this process reconnecting after the messenger server "
                + "(in process, SQLite) restarts and stays down \(downtime) s; median of \(runs) runs ==")
        print(
            "   attempts: TCP connections accepted by a counting proxy in front of the server from the restart until "
                + "the last client is live again, those refused while it was down included; peak: the most in any "
                + "1-second window; live: the client's state machine reached live (WebSocket handshake with "
                + "authentication done)")
        print(
            "   jitter cap \(cap) s (the default is 30 s) so that a run fits in about a minute; full jitter at cap: "
                + "every wait random(0, \(cap) s); growing: the default shape random(0, min(\(cap) s, 1 s·2ⁿ))")
        print(
            line(
                "peak attempts/s, jitter at cap", figure(atCap, \.peak), "/s", figure(fixed, \.peak), "fixed 1 s delay")
        )
        print(
            line(
                "peak attempts/s, jitter at cap", figure(atCap, \.peak), "/s", 0.2 * figure(fixed, \.peak),
                "goal: 0.2 × fixed 1 s delay"))
        print(
            decimalLine(
                "all live again, jitter at cap", figure(atCap, \.seconds), "s", figure(fixed, \.seconds),
                "fixed 1 s delay"))
        print(
            decimalLine(
                "all live again, jitter at cap", figure(atCap, \.seconds), "s", Double(cap + 5), "goal: cap + 5 s"))
        print(
            line(
                "peak attempts/s, growing", figure(growing, \.peak), "/s", figure(fixed, \.peak), "fixed 1 s delay"))
        print(
            decimalLine(
                "all live again, growing", figure(growing, \.seconds), "s", figure(fixed, \.seconds),
                "fixed 1 s delay"))
        for (index, name) in [(fixed, "fixed 1 s delay"), (atCap, "jitter at cap"), (growing, "growing")] {
            print(
                line(
                    "attempts, \(name)", figure(index, \.attempts), "", figure(index, \.clientAttempts),
                    "as counted by the clients"))
        }
        print(
            "   outbox: \(messages) sends of 160-byte messages to one account, each committed to the SQLite outbox, "
                + "sent on the live socket (\(inFlight) in flight) and its ack with serverSeq committed; bare: the "
                + "same PUT frames on the engine's socket with \(inFlight) in flight and nothing stored on the client")
        print(
            line(
                "outbox messages acked", median(results.map(\.outbox)), "/s", median(results.map(\.bare)),
                "bare socket, same frames"))
    }

    private func oneRun() async throws -> RunResult {
        let server = try RestartableMessenger(accounts: clients + 3)
        let client = try WebSocketClient()
        do {
            let bare = try await bareSends(server, client: client)
            let outbox = try await outboxSends(server, client: client)
            var recoveries: [Recovery] = []
            for reconnect in Reconnect.allCases {
                recoveries.append(try await recover(reconnect, server: server, client: client))
            }
            await runOffPool { client.shutdown() }
            await server.stop()
            return RunResult(recoveries: recoveries, outbox: outbox, bare: bare)
        } catch {
            await runOffPool { client.shutdown() }
            await server.stop()
            throw error
        }
    }

    private func credentials(_ index: Int) -> String {
        MessengerBenchServer.Device(accountId: "bench-\(index)", deviceId: 1).authorization
    }

    private var destination: String { "bench-\(clients + 2)" }

    private var payload: [UInt8] {
        JSONWriter.encode([
            "conversationId": "bench", "timestamp": 1_800_000_000_000,
            "messages": [
                [
                    "destinationDeviceId": 1, "destinationRegistrationId": 1, "type": 1,
                    "content": .string(Base64.encode([UInt8](repeating: 7, count: 160))),
                ]
            ],
        ])
    }

    // MARK: - Reconnect after a restart

    private func recover(_ reconnect: Reconnect, server: RestartableMessenger, client: WebSocketClient)
        async throws -> Recovery
    {
        let (clients, cap, downtime) = (self.clients, self.cap, self.downtime)
        let live = LiveTimes(count: clients)
        var configuration = WebSocketConfiguration()
        configuration.connectTimeoutMilliseconds = 10_000
        var connections: [RealtimeConnection] = []
        var watchers: [Task<Void, Never>] = []
        for index in 0..<clients {
            let authorization = credentials(index)
            let transport = WebSocketTransport(client: client, url: server.proxiedURL, configuration: configuration) {
                [("Authorization", authorization)]
            }
            let connection = RealtimeConnection(
                transport: transport, protocol: RequestResponseProtocol(), store: try RealtimeStore(path: ":memory:"),
                policy: reconnect.policy(cap: cap))
            watchers.append(
                Task {
                    for await event in connection.events where event == .state(.live) { live.record(index) }
                })
            connections.append(connection)
        }
        for connection in connections { await connection.start() }
        try await withDeadline(60, "\(clients) clients connecting") { await live.waitAll(after: 0) }
        // Resume answered and every queue empty before the restart.
        try await Task.sleep(for: .seconds(1))
        let acceptedBefore = server.proxy.acceptedCount
        var clientBefore = 0
        for connection in connections { clientBefore += await connection.connectAttempts }
        let start = DispatchTime.now().uptimeNanoseconds
        try await server.restart(downtime: .seconds(downtime))
        try await withDeadline(downtime + cap + 60, "\(clients) clients reconnecting") {
            await live.waitAll(after: start)
        }
        let end = live.latest
        let attempts = server.proxy.acceptTimes.dropFirst(acceptedBefore).filter { $0 <= end }
        var clientAfter = 0
        for connection in connections { clientAfter += await connection.connectAttempts }
        for connection in connections { await connection.stop() }
        for watcher in watchers { watcher.cancel() }
        // The next policy starts with every socket of this one closed.
        for _ in 0..<500 where server.proxy.openCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        return Recovery(
            seconds: Double(end - start) / 1e9, peak: Double(Self.peakPerSecond(Array(attempts))),
            attempts: Double(attempts.count), clientAttempts: Double(clientAfter - clientBefore))
    }

    /// The most of `times` (uptime nanoseconds) in any window of one second.
    static func peakPerSecond(_ times: [UInt64]) -> Int {
        let sorted = times.sorted()
        var best = 0
        var low = 0
        for high in sorted.indices {
            while sorted[high] - sorted[low] >= 1_000_000_000 { low += 1 }
            best = max(best, high - low + 1)
        }
        return best
    }

    // MARK: - Outbox throughput

    /// `messages` sends through a `RealtimeConnection` with a SQLite outbox, from the first
    /// `send` to the last ack.
    private func outboxSends(_ server: RestartableMessenger, client: WebSocketClient) async throws -> Double {
        let (messages, payload, destination) = (self.messages, self.payload, self.destination)
        let authorization = credentials(clients)
        let transport = WebSocketTransport(client: client, url: server.directURL) { [("Authorization", authorization)] }
        let store = try RealtimeStore(path: server.directory + "/outbox.sqlite")
        let connection = RealtimeConnection(transport: transport, protocol: RequestResponseProtocol(), store: store)
        let progress = OutboxProgress()
        let watcher = Task {
            for await event in connection.events {
                switch event {
                case .state(.live): progress.wentLive()
                case .outbox(_, .sent, _): progress.acknowledged()
                default: continue
                }
            }
        }
        defer { watcher.cancel() }
        await connection.start()
        try await withDeadline(30, "outbox connection") { await progress.waitLive() }
        try await Task.sleep(for: .milliseconds(300))
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<messages { try await connection.send(to: destination, payload: payload) }
        try await withDeadline(120, "outbox acks") { await progress.waitAcks(messages) }
        let seconds = Double(progress.lastAck - start) / 1e9
        await connection.stop()
        return Double(messages) / seconds
    }

    /// The same PUT frames on the engine's socket, `inFlight` at a time, nothing stored.
    private func bareSends(_ server: RestartableMessenger, client: WebSocketClient) async throws -> Double {
        let (messages, inFlight) = (self.messages, self.inFlight)
        var body = (try JSONParser.parse(payload)).objectValue ?? [:]
        let socket = try await client.connect(
            to: server.directURL, headers: [("Authorization", credentials(clients + 1))])
        defer { socket.outbound.close(.goingAway) }
        var nextId: Int64 = 0
        func frame() -> WebSocketMessage {
            nextId += 1
            body["clientMessageId"] = .string(UUID().uuidString)
            let request: [String: JSONValue] = [
                "type": "request", "id": .int(nextId), "verb": "PUT", "path": .string("/v1/messages/\(destination)"),
                "body": .object(body),
            ]
            return .text(JSONWriter.string(.object(request)))
        }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<min(inFlight, messages) { try await socket.outbound.send(frame()) }
        var acked = 0
        for await message in socket.inbound {
            guard case .text(let text) = message, let answer = try? JSONParser.parse(text),
                let id = answer["id"]?.intValue
            else { continue }
            if answer["type"]?.stringValue == "request" {
                try await socket.outbound.send(.text("{\"type\":\"response\",\"id\":\(id),\"status\":200}"))
                continue
            }
            guard answer["status"]?.intValue == 200, answer["body"]?["serverSeq"]?.intValue != nil else {
                throw BenchError("bare send answered \(text)")
            }
            acked += 1
            if acked == messages { break }
            if nextId < Int64(messages) { try await socket.outbound.send(frame()) }
        }
        guard acked == messages else { throw BenchError("bare socket closed after \(acked) acks") }
        return Double(messages) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}

/// The messenger server behind a counting `FaultProxy`, with accounts `bench-0` … made through
/// the store; `restart(downtime:)` stops it (every socket drops), waits, and starts another on
/// the same data, and the proxy follows it.
final class RestartableMessenger: Sendable {
    let directory: String
    let proxy: FaultProxy
    private let server: Mutex<HTTPServer>

    init(accounts: Int) throws {
        directory = NSTemporaryDirectory() + "realtime-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let configuration = MessengerBenchServer.configuration
        let store = try SQLiteMessengerStore(path: directory + "/messenger.sqlite")
        guard let hash = configuration.hashPassword(MessengerServerBenchmark.password) else {
            throw BenchError("password hashing failed")
        }
        try store.createAccounts(
            (0..<accounts).map { "bench-\($0)" },
            device: DeviceRecord(id: 1, registrationId: 1, name: "bench", passwordHash: hash, createdAt: 0))
        let first = try Self.start(store: store)
        server = Mutex(first)
        proxy = try FaultProxy(targetPort: first.port)
    }

    private static func start(store: SQLiteMessengerStore) throws -> HTTPServer {
        try MessengerBenchServer.startServer(store: store, configuration: MessengerBenchServer.configuration)
    }

    /// The delivery socket through the counting proxy.
    var proxiedURL: String { "ws://127.0.0.1:\(proxy.port)/v1/websocket" }

    /// The delivery socket of the server itself.
    var directURL: String { "ws://127.0.0.1:\(server.withLock { $0.port })/v1/websocket" }

    /// Stops the server, waits `downtime` (attempts meanwhile are accepted by the proxy and
    /// closed at once), then starts another on the same data.
    func restart(downtime: Duration) async throws {
        let old = server.withLock { $0 }
        await old.shutdown(deadline: .zero)
        try await Task.sleep(for: downtime)
        let next = try Self.start(store: try SQLiteMessengerStore(path: directory + "/messenger.sqlite"))
        server.withLock { $0 = next }
        proxy.retarget(port: next.port)
    }

    func stop() async {
        proxy.stop()
        let current = server.withLock { $0 }
        let directory = directory
        await runOffPool {
            _ = current.stop(deadline: .zero)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

/// When each client last went live (uptime nanoseconds; 0 = not yet).
private final class LiveTimes: Sendable {
    private let times: Mutex<[UInt64]>

    init(count: Int) { times = Mutex([UInt64](repeating: 0, count: count)) }

    func record(_ index: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        times.withLock { $0[index] = now }
    }

    /// The last time any client went live.
    var latest: UInt64 { times.withLock { $0.max() ?? 0 } }

    /// Returns once every client went live after `start`.
    func waitAll(after start: UInt64) async {
        while times.withLock({ $0.contains { $0 <= start } }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// The outbox run's progress, from its connection's events.
private final class OutboxProgress: Sendable {
    private struct State {
        var live = false
        var acked = 0
        var lastAck: UInt64 = 0
    }
    private let state = Mutex(State())

    func wentLive() { state.withLock { $0.live = true } }

    func acknowledged() {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock {
            $0.acked += 1
            $0.lastAck = now
        }
    }

    var lastAck: UInt64 { state.withLock { $0.lastAck } }

    func waitLive() async {
        while !state.withLock({ $0.live }) { try? await Task.sleep(for: .milliseconds(5)) }
    }

    func waitAcks(_ count: Int) async {
        while state.withLock({ $0.acked }) < count { try? await Task.sleep(for: .milliseconds(5)) }
    }
}
