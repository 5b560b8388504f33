import CourierCore
import CourierHTTP
import CourierTesting
import Sync
import SyncWire
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TombstoneHorizonTests {
    @Test(arguments: StoreBackend.allCases)
    func aClientOfflinePastTheHorizonRefetchesASnapshotAndConverges(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend) { $0.tombstoneHorizon = .seconds(86_400) }
        defer { harness.stop() }
        let (laptop, _) = try harness.client("laptop")
        let (phone, phoneTransport) = try harness.client("phone")
        let gone = try await laptop.create("notes", fields: ["title": "to delete"])
        let kept = try await laptop.create("notes", fields: ["title": "to edit"])
        try await laptop.sync()
        try await phone.sync()

        phoneTransport.set(.offline)
        try await laptop.delete("notes", id: gone)
        try await laptop.set("notes", id: kept, fields: ["title": "edited"])
        let added = try await laptop.create("notes", fields: ["title": "new"])
        try await laptop.sync()
        let phoneOnly = try await phone.create("notes", fields: ["title": "made offline"])

        harness.clock.advance(by: .seconds(2 * 86_400))
        #expect(try await harness.collectTombstones() == 1)

        phoneTransport.set(.none)
        let report = try await phone.sync()
        #expect(report.refetched)
        #expect(try await phone.record("notes", id: gone) == nil)
        #expect(try await phone.record("notes", id: kept)?.fields == ["title": "edited"])
        #expect(try await phone.record("notes", id: added) != nil)
        #expect(try await phone.record("notes", id: phoneOnly)?.isPending == false)
        #expect(try await phone.checksum() == harness.serverChecksum())
        try await laptop.sync()
        #expect(try await laptop.records("notes") == phone.records("notes"))
    }

    @Test(arguments: StoreBackend.allCases)
    func aClientWithinTheHorizonPullsWithoutRefetching(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend) { $0.tombstoneHorizon = .seconds(86_400) }
        defer { harness.stop() }
        let (laptop, _) = try harness.client("laptop")
        let (phone, _) = try harness.client("phone")
        let id = try await laptop.create("notes", fields: ["title": "x"])
        try await laptop.sync()
        try await phone.sync()
        try await laptop.delete("notes", id: id)
        try await laptop.sync()
        let report = try await phone.sync()
        #expect(!report.refetched)
        #expect(try await phone.record("notes", id: id) == nil)
        harness.clock.advance(by: .seconds(2 * 86_400))
        #expect(try await harness.collectTombstones() == 1)
        #expect(try await phone.sync().refetched == false)
    }

    /// The service's tombstone job runs under the server's `run()` on the service's clock: once
    /// at start, then every `tombstoneCollectionInterval`; it stops with the server.
    @Test(arguments: StoreBackend.allCases)
    func theTombstoneJobCollectsOnTheServicesClockAndStopsWithTheServer(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend, listening: false) {
            $0.tombstoneHorizon = .seconds(86_400)
            $0.tombstoneCollectionInterval = .seconds(3_600)
        }
        defer { harness.stop() }
        let auth = ["Authorization": "Bearer \(SyncHarness.token)"]
        for (sequence, kind) in [(Int64(1), SyncOperation.Kind.set(["title": "x"])), (2, .delete)] {
            let operation = SyncOperation(
                id: "op-\(sequence)", sequence: sequence, collection: "notes", recordID: "r", kind: kind,
                baseVersion: sequence - 1, hlc: "")
            let pushed = try await harness.routes.execute(
                "POST", "/v1/sync/push", json: ["clientID": "c", "operations": [operation.json]], headers: auth)
            #expect(pushed.status == 200)
        }
        var http = HTTPServerConfiguration()
        http.port = 0
        let server = HTTPServer(configuration: http, router: Router(), jobs: harness.service.backgroundJobs)
        let running = Task { try await server.run() }
        // The run at start found nothing past the horizon; the one a day and an hour later did.
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .seconds(86_400 + 3_600))
        try await harness.clock.waitForSleepers(1)
        #expect(try await harness.collectTombstones() == 0)
        await server.shutdown(deadline: .zero)
        try await running.value
        #expect(harness.clock.sleeperCount == 0)
    }
}
