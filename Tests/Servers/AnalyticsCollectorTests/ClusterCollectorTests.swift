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
}
