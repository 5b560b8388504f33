import AnalyticsCollector
import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// The collector's background job (dedupe pruning) runs under the server's `run()` on the
/// collector's clock and stops with the server; its batches here go in process (no socket).
@Suite(.timeLimit(.minutes(1)))
struct CollectorJobsTests {
    @Test func dedupePruningRunsEveryIntervalOfTheCollectorsClock() async throws {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200))
        var configuration = CollectorConfiguration()
        configuration.dedupeWindow = .seconds(3_600)
        configuration.dedupePruneInterval = .seconds(600)
        let store = FaultInjectingStore(
            try SQLiteEventStore(path: ":memory:", dedupeWindow: configuration.dedupeWindow))
        let collector = Collector(configuration: configuration, store: store, clock: clock)
        defer { inBackground { collector.shutdown() } }
        try collector.register(writeKeys: [CollectorHarness.writeKey])
        var router = Router()
        collector.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        let server = HTTPServer(
            configuration: http, router: router, jobs: collector.backgroundJobs)
        let stored = try await RouterTestClient(server: server).execute(
            "POST", "/v1/batch", json: CollectorHarness.batch(3),
            headers: ["Authorization": "Basic " + Base64.encode(Array("\(CollectorHarness.writeKey):".utf8))])
        #expect(stored.status == 200)

        let running = Task { try await server.run() }
        // The run at start has nothing to forget; the first one past the window forgets the batch.
        try await clock.waitForSleepers(1)
        #expect(store.forgotten.load(ordering: .relaxed) == 0)
        clock.advance(by: .seconds(2 * 3_600))
        try await clock.waitForSleepers(1)
        #expect(store.forgotten.load(ordering: .relaxed) == 3)
        await server.shutdown(deadline: .zero)
        try await running.value
        #expect(clock.sleeperCount == 0)
    }
}
