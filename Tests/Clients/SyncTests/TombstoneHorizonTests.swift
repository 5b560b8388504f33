import CourierCore
import Sync
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TombstoneHorizonTests {
    @Test func aClientOfflinePastTheHorizonRefetchesASnapshotAndConverges() async throws {
        let harness = try SyncHarness { $0.tombstoneHorizon = .seconds(86_400) }
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
        #expect(try harness.service.collectTombstones() == 1)

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

    @Test func aClientWithinTheHorizonPullsWithoutRefetching() async throws {
        let harness = try SyncHarness { $0.tombstoneHorizon = .seconds(86_400) }
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
        #expect(try harness.service.collectTombstones() == 1)
        #expect(try await phone.sync().refetched == false)
    }
}
