import CourierCore
import CourierTesting
import Sync
import SyncWire
import Testing

/// A thousand random steps of edits, deletes, syncs, lost connections, lost answers, client kills
/// and server restarts across three clients, spread over two instances of the server on one
/// store; afterwards every client holds the server's record set and no write the server
/// acknowledged is missing.
@Suite(.timeLimit(.minutes(3)))
struct ConvergencePropertyTests {
    static let collections: [String: ConflictPolicy] = [
        "notes": .fieldMerge, "tasks": .lastWriterWins, "cards": .serverWins,
    ]

    @Test(arguments: StoreBackend.allCases, [UInt64(13), 2_026])
    func randomInterleavingsConvergeWithoutLosingAcknowledgedWrites(backend: StoreBackend, seed: UInt64) async throws {
        let harness = try await SyncHarness(backend: backend, instances: 2)
        defer { harness.stop() }
        var random = SeededGenerator(state: seed)
        let names = ["laptop", "phone", "tablet"]
        let transports = names.indices.map { harness.transport(instance: $0 % 2) }
        var clients = try names.indices.map {
            try harness.client(names[$0], policies: Self.collections, transport: transports[$0]).0
        }
        let ids = (0..<8).map { "record-\($0)" }
        let collections = Self.collections.keys.sorted()
        var restarts = 0
        var acknowledged: [SyncRecord] = []

        for _ in 0..<1_000 {
            let who = Int.random(in: 0..<clients.count, using: &random)
            let client = clients[who]
            let collection = collections.randomElement(using: &random) ?? "notes"
            let id = ids.randomElement(using: &random) ?? "record-0"
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<40:
                let field = ["a", "b", "c"].randomElement(using: &random) ?? "a"
                try await client.set(
                    collection, id: id, fields: [field: .int(Int64.random(in: 0..<1_000, using: &random))])
            case 40..<50:
                if try await client.record(collection, id: id) != nil { try await client.delete(collection, id: id) }
            case 50..<80:
                _ = try? await client.sync()
            case 80..<90:
                let faults: [FaultyTransport.Fault] = [.none, .none, .offline, .loseAnswer]
                transports[who].set(faults.randomElement(using: &random) ?? .none)
            case 90..<97:
                // A kill: the client goes away without notice and comes back from its file.
                clients[who] = try harness.client(names[who], policies: Self.collections, transport: transports[who]).0
            default:
                if restarts < 3 {
                    restarts += 1
                    try await harness.restart()
                }
            }
            harness.clock.advance(by: .milliseconds(Int64.random(in: 0..<50, using: &random)))
        }

        for transport in transports { transport.set(.none) }
        for _ in 0..<4 {
            for client in clients { try await client.sync() }
        }
        for client in clients {
            #expect(try await client.pendingOperationCount() == 0)
            #expect(try await client.deadLetters().isEmpty)
            #expect(try await client.checksum() == harness.serverChecksum())
        }
        for collection in collections {
            let first = try await clients[0].records(collection)
            for client in clients.dropFirst() { #expect(try await client.records(collection) == first) }
        }
        acknowledged = transports.flatMap(\.acknowledged)
        #expect(acknowledged.count > 50)
        // Every acknowledged version is still in the server's history, unchanged, and no record
        // went back to an older version (no restart lost a commit).
        let history = try await harness.serverRows(
            "SELECT collection, id, version, fields, deleted FROM sync_history", []
        ) { row in
            SyncRecord(
                collection: row.text(0) ?? "", id: row.text(1) ?? "", version: row.int(2),
                fields: try JSONParser.parse(row.text(3) ?? "{}").objectValue ?? [:], deleted: row.int(4) != 0, hlc: "")
        }
        let versions = try await harness.serverRows("SELECT collection, id, version FROM sync_records", []) { row in
            (row.text(0) ?? "", row.text(1) ?? "", row.int(2))
        }
        for record in acknowledged {
            let stored = history.first {
                $0.collection == record.collection && $0.id == record.id && $0.version == record.version
            }
            #expect(stored?.fields == record.fields && stored?.deleted == record.deleted, "\(record)")
            let current = versions.first { $0.0 == record.collection && $0.1 == record.id }
            #expect((current?.2 ?? 0) >= record.version)
        }
    }
}
