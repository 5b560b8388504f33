import CourierCore
import CourierHTTP
import CourierPostgres
import CourierTesting
import Foundation
import Synchronization
import Testing

/// `courier-server` killed with SIGKILL in the middle of ingest, then started again on the same
/// data directory (the dedupe memory is rebuilt from the stored events) or the same PostgreSQL
/// database (`--database`).
@Suite(.timeLimit(.minutes(3)))
struct ServerKillTests {
    /// Batch ids each client sent, and which of them were acknowledged.
    final class Sent: Sendable {
        private let state = Mutex<(attempted: [String], acknowledged: [String])>(([], []))
        func add(_ id: String, acknowledged: Bool) {
            state.withLock {
                $0.attempted.append(id)
                if acknowledged { $0.acknowledged.append(id) }
            }
        }
        var attempted: [String] { state.withLock { $0.attempted } }
        var acknowledged: [String] { state.withLock { $0.acknowledged } }
    }

    /// The `message_id` of every stored event.
    static func storedMessageIds(data: URL, database: String?) async throws -> [String] {
        guard let database else {
            return try Database(path: data.appendingPathComponent("collector.sqlite").path).query(
                "SELECT message_id FROM events"
            ) { $0.text(0) ?? "" }
        }
        return try await offPool {
            try PostgresConnection(url: database).query("SELECT message_id FROM events") { $0.text(0) ?? "" }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aKilledCollectorKeepsEveryAcknowledgedEventAndStoresNoneTwiceAfterRetries(backend: StoreBackend) async throws {
        let server = try #require(ServerProcessTests.serverExecutable, "build courier-server first (swift build)")
        let data = try ServerProcessTests.dataDirectory()
        let auth = "Basic " + Base64.encode(Array("kill-key:".utf8))
        let database = backend == .postgres ? try await TestPostgres.shared.makeDatabase() : nil
        let extra = database.map { ["--database", $0] } ?? []
        let (process, port) = try await ServerProcessTests.start(
            server, data: data, writeKey: "kill-key", extra: extra)
        let sent = Sent()
        // Eight clients send batches until the server dies under them.
        let clients = (0..<8).map { client in
            Task {
                await runOffPool {
                    for round in 0..<2_000 {
                        let id = "c\(client)-r\(round)"
                        let outcome = ServerProcessTests.post(ServerProcessTests.batch(id: id), port: port, auth: auth)
                        sent.add(id, acknowledged: outcome == .answered(200))
                        if outcome != .answered(200) { return }
                    }
                }
            }
        }
        #expect(await poll { sent.acknowledged.count >= 150 })
        process.signal(SIGKILL)
        _ = await runOffPool { process.wait() } as Int32
        for client in clients { await client.value }
        // Every batch answered 200 before the kill is on disk.
        let afterKill = Set(try await Self.storedMessageIds(data: data, database: database))
        let acknowledgedIds = sent.acknowledged.flatMap { id in (0..<20).map { "\(id)-\($0)" } }
        #expect(acknowledgedIds.allSatisfy { afterKill.contains($0) })

        // The next start sees every acknowledged batch; clients then send everything again, as an
        // SDK does with what it has not seen acknowledged (and here even with what it has).
        let (restarted, newPort) = try await ServerProcessTests.start(
            server, data: data, writeKey: "kill-key", extra: extra)
        defer {
            restarted.terminate()
            _ = restarted.wait()
        }
        let attempted = sent.attempted
        let retries: [ServerProcessTests.Outcome] = await runOffPool {
            attempted.map {
                ServerProcessTests.postRetrying(ServerProcessTests.batch(id: $0), port: newPort, auth: auth)
            }
        }
        #expect(retries.allSatisfy { $0 == .answered(200) }, "\(retries.filter { $0 != .answered(200) })")

        let stored = try await Self.storedMessageIds(data: data, database: database)
        #expect(stored.count == attempted.count * 20)
        #expect(Set(stored).count == stored.count)
        if database != nil {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: data.path)) ?? []
            #expect(!files.contains { $0.hasSuffix(".sqlite") && $0.hasPrefix("collector") })
        }
    }
}
