import CourierCore
import CourierHTTP
import Foundation
import Messenger
import MessengerServer
import Realtime
import SignalProtocol
import Synchronization

/// `courier-bench messenger`: end-to-end messages per second and latency from `send` to the
/// recipient device's stored plaintext (the `DeliveryListener`'s event, after its commit), on
/// loopback against the real server: 1:1 with two devices each, and a group of 50 pairwise and
/// by sender keys. Beside each, the SignalProtocol-only cost of the same encryptions and
/// decryptions in the same run (`MessengerCryptoBaseline`).
struct MessengerBenchmark {
    let runs: Int
    let messages: Int
    let groupMessages = 20
    let groupSize = 50

    struct Figures: Sendable {
        var perSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var cryptoPerSecond: Double
        /// The recipients' store commits per envelope they received (1 or more without batching).
        var commitsPerEnvelope: Double
        /// The server's group commits of sends per message sent (SQLite store; 0 on PostgreSQL).
        var serverCommitsPerMessage: Double
    }

    func run() throws {
        var results: [String: [Figures]] = [:]
        let scenarios = [
            "1:1, 2 devices each", "1:1, backlog on connect", "group of 50, pairwise", "group of 50, sender keys",
        ]
        for _ in 0..<runs {
            let (messages, groupMessages, groupSize) = (self.messages, self.groupMessages, self.groupSize)
            let figures = try MessengerBenchServer.with { server in
                try runBlocking { try await Self.runOnce(server, messages, groupMessages, groupSize) }
            }
            for (name, figure) in zip(scenarios, figures) { results[name, default: []].append(figure) }
        }
        print("== messenger: end to end on loopback, median of \(runs) runs ==")
        for name in scenarios {
            let figures = results[name] ?? []
            let e2e = median(figures.map(\.perSecond))
            let crypto = median(figures.map(\.cryptoPerSecond))
            print(
                name.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + String(
                        format: " %8.1f msgs/s   vs SignalProtocol only %8.1f msgs/s   = %.2f×", e2e, crypto,
                        crypto > 0 ? e2e / crypto : 0))
            print(
                String(
                    format: "    send → stored p50 %.1f ms, p99 %.1f ms",
                    median(figures.map(\.p50Milliseconds)), median(figures.map(\.p99Milliseconds))))
            print(
                String(
                    format:
                        "    recipients' store commits per envelope received %.2f; server send commits per message %.2f",
                    median(figures.map(\.commitsPerEnvelope)), median(figures.map(\.serverCommitsPerMessage))))
        }
    }

    private static func runOnce(_ server: MessengerBenchServer, _ messages: Int, _ groupMessages: Int, _ groupSize: Int)
        async throws -> [Figures]
    {
        let devices = Devices(server: server)
        let serverCommits = { (server.store as? SQLiteMessengerStore)?.sendGroupCommits ?? 0 }
        let sockets = try WebSocketClient()
        defer { sockets.shutdown() }

        let alice = try await devices.register("alice")
        let aliceTablet = try await devices.link("alice-tablet", to: alice)
        let bob = try await devices.register("bob")
        let bobLaptop = try await devices.link("bob-laptop", to: bob)
        try await alice.send(text: "warm-up", to: bob.credentials.accountId)
        for device in [aliceTablet, bob, bobLaptop] { _ = try await device.sync() }
        var oneToOne = try await measure(
            from: alice, to: [bob, bobLaptop, aliceTablet], measured: 2, count: messages, sockets: sockets,
            serverCommits: serverCommits
        ) { text in try await alice.send(text: text, to: bob.credentials.accountId) }
        let baseline = try MessengerCryptoBaseline(receiverCount: 3)
        oneToOne.cryptoPerSecond = try baseline.pairwise(messages: messages, plaintext: plaintext(messages))
        baseline.remove()
        // The same messages waiting on the server when the devices connect: they arrive together
        // and share commits.
        var backlog = try await measure(
            from: alice, to: [bob, bobLaptop, aliceTablet], measured: 2, count: messages, sockets: sockets,
            serverCommits: serverCommits, backlog: true
        ) { text in try await alice.send(text: text, to: bob.credentials.accountId) }
        backlog.cryptoPerSecond = oneToOne.cryptoPerSecond

        var members: [MessengerClient] = []
        for index in 1..<groupSize { members.append(try await devices.register("member-\(index)")) }
        let accounts = members.map(\.credentials.accountId)
        var groups: [Figures] = []
        for mode in [GroupMode.pairwise, .senderKeys] {
            let group = "bench-\(mode.rawValue)"
            try await alice.createGroup(group, members: accounts, mode: mode)
            try await alice.send(text: "warm-up", toGroup: group)
            for member in members + [aliceTablet] { _ = try await member.sync() }
            var figures = try await measure(
                from: alice, to: members, measured: members.count, count: groupMessages, sockets: sockets,
                serverCommits: serverCommits
            ) { text in try await alice.send(text: text, toGroup: group) }
            let crypto = try MessengerCryptoBaseline(receiverCount: groupSize - 1)
            figures.cryptoPerSecond =
                mode == .pairwise
                ? try crypto.pairwise(messages: groupMessages, plaintext: plaintext(groupMessages))
                : try crypto.senderKeys(messages: groupMessages, plaintext: plaintext(groupMessages))
            crypto.remove()
            groups.append(figures)
            _ = try await aliceTablet.sync()
        }
        return [oneToOne, backlog] + groups
    }

    /// A plaintext the size of the benchmark's content.
    private static func plaintext(_ index: Int) -> [UInt8] {
        MessageContent.text(body: "benchmark message \(index)", attachment: nil, sentAt: 0, group: nil).encoded
    }

    /// Sends `count` messages one after another and waits until every recipient stored all of
    /// them; latencies are taken at the first `measured` recipients. With `backlog`, every message
    /// is sent before the recipients connect, and the time runs from their connecting.
    private static func measure(
        from sender: MessengerClient, to recipients: [MessengerClient], measured: Int, count: Int,
        sockets: WebSocketClient, serverCommits: () -> Int, backlog: Bool = false,
        send: (String) async throws -> Void
    ) async throws -> Figures {
        let serverCommitsBefore = serverCommits()
        let clock = ContinuousClock()
        let starts = SendTimes()
        let texts = (0..<count).map { "benchmark message \($0)" }
        if backlog {
            for text in texts { try await send(text) }
            let now = clock.now
            for text in texts { starts.record(text, now) }
        }
        // The sender is online too, as an app in use is: its sends go on its delivery socket.
        let senderListener = try await sender.listen(
            transport: WebSocketTransport(client: sockets, url: sender.deliverySocketURL) {
                [sender.authorizationHeader]
            })
        defer { senderListener.stop() }
        let commitsBefore = recipients.reduce(0) { $0 + $1.storeCommits }
        var listeners: [DeliveryListener] = []
        for recipient in recipients {
            let transport = WebSocketTransport(client: sockets, url: recipient.deliverySocketURL) {
                [recipient.authorizationHeader]
            }
            listeners.append(try await recipient.listen(transport: transport))
        }
        let begin = backlog ? starts.start(of: texts[0]) ?? clock.now : clock.now
        let waits = listeners.enumerated().map { index, listener in
            Task { () -> [Duration] in
                var latencies: [Duration] = []
                var seen = 0
                for await event in listener.events {
                    guard case .message(let message) = event else { continue }
                    if index < measured, let start = starts.start(of: message.body) {
                        latencies.append(clock.now - start)
                    }
                    seen += 1
                    if seen == count { break }
                }
                listener.stop()
                return latencies
            }
        }
        for text in texts where !backlog {
            starts.record(text, clock.now)
            try await send(text)
        }
        var latencies: [Double] = []
        for wait in waits {
            latencies += await wait.value.map {
                Double($0.components.attoseconds) / 1e15 + Double($0.components.seconds) * 1e3
            }
        }
        let elapsed = clock.now - begin
        let commits = recipients.reduce(0) { $0 + $1.storeCommits } - commitsBefore
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        latencies.sort()
        guard latencies.count >= count else { throw BenchError("messenger: only \(latencies.count) latencies") }
        return Figures(
            perSecond: Double(count) / seconds, p50Milliseconds: latencies[latencies.count / 2],
            p99Milliseconds: latencies[min(latencies.count - 1, latencies.count * 99 / 100)], cryptoPerSecond: 0,
            commitsPerEnvelope: Double(commits) / Double(count * recipients.count),
            serverCommitsPerMessage: Double(serverCommits() - serverCommitsBefore) / Double(count))
    }

    /// Devices of one run, each with its own directory and key file under the server's directory.
    struct Devices: Sendable {
        let server: MessengerBenchServer

        func configuration(_ name: String) -> MessengerClientConfiguration {
            MessengerClientConfiguration(
                serverURL: server.server.baseURL, directory: server.directory + "/clients/" + name,
                keyProvider: FileKeyProvider(path: server.directory + "/clients/" + name + ".key"), deviceName: name)
        }

        func register(_ name: String) async throws -> MessengerClient {
            try await MessengerClient.register(configuration(name), http: server.client)
        }

        func link(_ name: String, to primary: MessengerClient) async throws -> MessengerClient {
            try await MessengerClient.link(
                configuration(name), token: try await primary.linkingToken(),
                identity: await primary.identityKeyPair(), http: server.client)
        }
    }
}

/// When each message was handed to `send`, read by the recipients' listeners.
private final class SendTimes: Sendable {
    private let times = Mutex<[String: ContinuousClock.Instant]>([:])
    func record(_ text: String, _ instant: ContinuousClock.Instant) { times.withLock { $0[text] = instant } }
    func start(of text: String) -> ContinuousClock.Instant? { times.withLock { $0[text] } }
}
