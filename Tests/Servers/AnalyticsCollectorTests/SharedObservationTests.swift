import AnalyticsCollector
import CourierCore
import CourierHTTP
import CourierTesting
import Testing

/// Two collectors on one PostgreSQL database report the same volume and refusals: each counts
/// in memory, flushes to the database every second and before each read, and reads what every
/// instance flushed.
@Suite(.timeLimit(.minutes(2)))
struct SharedObservationTests {
    static let admin = ["Authorization": "Bearer \(CollectorHarness.adminToken)"]

    static func get(_ harness: CollectorHarness, _ route: String) async throws -> JSONValue? {
        try await RouterTestClient(server: harness.server).execute(
            "GET", "/v1/projects/\(CollectorHarness.writeKey)/\(route)", headers: admin
        ).jsonBody
    }

    /// Two collectors, each with a store of its own on one new database.
    static func pair() async throws -> (CollectorHarness, CollectorHarness) {
        let url = try await TestPostgres.shared.makeDatabase()
        let a = try await CollectorHarness(
            store: try await offPool { try PostgresEventStore(url: url, connections: 2) })
        let b = try await CollectorHarness(
            store: try await offPool { try PostgresEventStore(url: url, connections: 2) })
        return (a, b)
    }

    @Test func bothInstancesReportTheSameVolumeAndRejections() async throws {
        let (a, b) = try await Self.pair()
        defer {
            a.stop()
            b.stop()
        }
        let invalid: JSONValue = ["type": "track", "messageId": "bad"]
        let first = try await a.post(json: [
            "batch": [CollectorHarness.track("a-1"), CollectorHarness.track("a-2"), invalid]
        ])
        #expect(first.status == 200)
        #expect(try await b.post(json: CollectorHarness.batch(1, prefix: "b")).status == 200)
        #expect(try await b.post(json: CollectorHarness.batch(1, prefix: "b")).status == 200)
        // Each read flushes the reader's own counts first; A's were flushed by its first read.
        _ = try await Self.get(a, "volume")
        let volumeOnB = try await Self.get(b, "volume")
        let volumeOnA = try await Self.get(a, "volume")
        #expect(volumeOnA == volumeOnB)
        #expect(volumeOnA?["perHour"]?["track"]?.arrayValue?.last == 3)
        #expect(volumeOnA?["perMinute"]?["track"]?.arrayValue?.last == 3)
        let rejectionsOnA = try await Self.get(a, "rejections")
        let rejectionsOnB = try await Self.get(b, "rejections")
        #expect(rejectionsOnA == rejectionsOnB)
        #expect(rejectionsOnA?["counts"]?["invalid_message"] == 1)
        #expect(rejectionsOnA?["counts"]?["duplicate"] == 1)
        #expect(rejectionsOnA?["recent"]?.arrayValue?.count == 2)
    }

    @Test func theFlushJobMovesCountsWithoutARead() async throws {
        let (a, b) = try await Self.pair()
        defer {
            a.stop()
            b.stop()
        }
        let flush = try #require(a.collector.backgroundJobs.first { $0.name == "collector.observations" })
        let job = Task { await flush.run() }
        defer { job.cancel() }
        try await a.clock.waitForSleepers(1)
        #expect(try await a.post(json: CollectorHarness.batch(2, prefix: "a")).status == 200)
        #expect(try await Self.get(b, "volume")?["perHour"]?["track"] == nil)
        a.clock.advance(by: .seconds(1))
        try await a.clock.waitForSleepers(1)
        #expect(try await Self.get(b, "volume")?["perHour"]?["track"]?.arrayValue?.last == 2)
    }
}
