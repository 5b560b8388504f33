import CourierCore
import CourierHTTP
import CourierPostgres
import CourierTesting
import Foundation
import Synchronization
import Testing

/// The collector on two `courier-server` instances sharing PostgreSQL and NATS, behind haproxy.
@Suite(.timeLimit(.minutes(4)))
struct ClusterCollectorTests {
    static func storedMessageIds(_ cluster: TestCluster) async throws -> [String] {
        let url = cluster.database
        return try await offPool {
            try PostgresConnection(url: url).query("SELECT message_id FROM events") { $0.text(0) ?? "" }
        }
    }

    /// What requests got, from several clients.
    final class Outcomes: Sendable {
        private let outcomes = Mutex<[ServerProcessTests.Outcome]>([])
        /// Adds one; returns how many there are.
        func append(_ outcome: ServerProcessTests.Outcome) -> Int {
            outcomes.withLock {
                $0.append(outcome)
                return $0.count
            }
        }
        var all: [ServerProcessTests.Outcome] { outcomes.withLock { $0 } }
    }

    static func auth(_ cluster: TestCluster) -> String {
        "Basic " + Base64.encode(Array("\(cluster.writeKey):".utf8))
    }

    @Test func theSameBatchesSentToBothInstancesAcrossAKillAreStoredOnce() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let auth = Self.auth(cluster)
        let (a, b) = (cluster.ports[0], cluster.ports[1])
        let sent = ServerKillTests.Sent()
        // Four clients send every batch to both instances until A dies under them.
        let clients = (0..<4).map { client in
            Task {
                await runOffPool {
                    for round in 0..<1_000 {
                        let id = "c\(client)-r\(round)"
                        let first = ServerProcessTests.post(ServerProcessTests.batch(id: id), port: a, auth: auth)
                        let second = ServerProcessTests.post(ServerProcessTests.batch(id: id), port: b, auth: auth)
                        sent.add(id, acknowledged: first == .answered(200) || second == .answered(200))
                        if first != .answered(200) { return }
                    }
                }
            }
        }
        #expect(await poll { sent.acknowledged.count >= 60 })
        await cluster.kill(0)
        for client in clients { await client.value }
        try await cluster.start(0)
        // Everything again, to both, as SDKs retry what they have not seen acknowledged.
        let attempted = sent.attempted
        let retries: [ServerProcessTests.Outcome] = await runOffPool {
            attempted.flatMap { id in
                [a, b].map { ServerProcessTests.postRetrying(ServerProcessTests.batch(id: id), port: $0, auth: auth) }
            }
        }
        #expect(retries.allSatisfy { $0 == .answered(200) }, "\(retries.filter { $0 != .answered(200) })")
        let stored = try await Self.storedMessageIds(cluster)
        #expect(stored.count == attempted.count * 20)
        #expect(Set(stored).count == stored.count)
    }

    @Test func onceAKilledInstanceIsGoneHaproxySendsEveryRequestToTheOther() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let auth = Self.auth(cluster)
        let proxy = cluster.proxyPort
        let killed = CompletionFlag()
        let afterKill = Outcomes()
        let clients = (0..<4).map { client in
            Task {
                await runOffPool {
                    for round in 0..<100_000 {
                        let wasKilled = killed.isSet
                        let outcome = ServerProcessTests.post(
                            ServerProcessTests.batch(id: "p\(client)-\(round)"), port: proxy, auth: auth)
                        if wasKilled {
                            if afterKill.append(outcome) >= 160 { return }
                        }
                    }
                }
            }
        }
        #expect(await poll { ((try? await Self.storedMessageIds(cluster).count) ?? 0) >= 400 })
        await cluster.kill(0)
        killed.set()
        for client in clients { await client.value }
        let outcomes = afterKill.all
        // Requests sent after the instance was gone: a refused connection is retried on the other.
        #expect(outcomes.allSatisfy { $0 == .answered(200) }, "\(outcomes.filter { $0 != .answered(200) })")
    }

    @Test func withNATSStoppedEveryInstanceKeepsIngestingAndServingReads() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let auth = Self.auth(cluster)
        await cluster.nats.stop()
        let outcomes = await runOffPool {
            cluster.ports.map { port in
                ServerProcessTests.post(ServerProcessTests.batch(id: "no-nats-\(port)"), port: port, auth: auth)
            }
        }
        #expect(outcomes == [.answered(200), .answered(200)])
        for port in cluster.ports { #expect(await TestCluster.answersHealthCheck(port: port)) }
        #expect(try await Self.storedMessageIds(cluster).count == 40)
        try await cluster.nats.start()
    }

    @Test func anEventIngestedOnOneInstanceShowsInALiveStreamOnTheOtherWithinASecond() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let stream = try RawSocket(port: cluster.ports[0], timeoutSeconds: 10)
        try stream.send(
            "GET /v1/events/stream?writeKey=\(cluster.writeKey) HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer \(cluster.adminToken)\r\n\r\n")
        var text = ""
        while !text.contains("retry:") { text += String(decoding: try #require(stream.read()), as: UTF8.self) }
        let auth = Self.auth(cluster)
        let port = cluster.ports[1]
        let ingested = await runOffPool {
            ServerProcessTests.post(ServerProcessTests.batch(id: "from-b"), port: port, auth: auth)
        }
        let answered = ContinuousClock.now
        #expect(ingested == .answered(200))
        while !text.contains("from-b-19") { text += String(decoding: try #require(stream.read()), as: UTF8.self) }
        let waited = ContinuousClock.now - answered
        #expect(waited < .seconds(1), "the stream on A showed B's batch \(waited) after B answered")
    }

    @Test func aReaderPagingWhileBothInstancesWriteSeesExactlyWhatTheTableHolds() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        let auth = Self.auth(cluster)
        let writing = CompletionFlag()
        let writers = cluster.ports.enumerated().map { index, port in
            Task {
                await runOffPool {
                    for round in 0..<60 {
                        _ = ServerProcessTests.postRetrying(
                            ServerProcessTests.batch(id: "w\(index)-\(round)"), port: port, auth: auth)
                    }
                }
            }
        }
        let done = Task {
            for writer in writers { await writer.value }
            writing.set()
        }
        // Pages with `after=` from A and from B in turn while both write, then once more after.
        let client = HTTPClient(timeout: .seconds(30))
        var seen: [String] = []
        var cursor = "0"
        var turn = 0
        var drained = false
        while !drained {
            let finished = writing.isSet
            turn += 1
            let response = try await client.send(
                "GET", cluster.baseURL(turn % 2) + "/v1/events?writeKey=\(cluster.writeKey)&after=\(cursor)&limit=50",
                headers: ["Authorization": "Bearer \(cluster.adminToken)"])
            try #require(response.status == 200)
            let events = response.json?["events"]?.arrayValue ?? []
            seen += events.compactMap { $0["messageId"]?.stringValue }
            cursor = response.json?["lastCursor"]?.stringValue ?? cursor
            drained = finished && events.isEmpty
        }
        await done.value
        let stored = try await Self.storedMessageIds(cluster)
        #expect(seen.count == stored.count && Set(seen) == Set(stored))
        #expect(stored.count == 2 * 60 * 20)
    }
}
