import AnalyticsCollector
import CourierCore
import CourierHTTP
import CourierTesting
import Testing

/// Two collectors on one store and one bus: a batch ingested on one wakes the live event stream
/// (what the console's debugger reads) held open on the other, and each instance wakes its own
/// streams once per commit.
@Suite(.timeLimit(.minutes(2)))
struct CollectorWakeUpTests {
    @Test(arguments: [CollectorBackend.file, .postgres])
    func aBatchIngestedOnOneInstanceWakesALiveStreamOnTheOther(backend: CollectorBackend) async throws {
        let store = try await backend.makeEventStore()
        let bus = LocalMessageBus()
        let a = try await CollectorHarness(store: store, bus: bus)
        defer { a.stop() }
        let b = try await CollectorHarness(store: store, bus: bus)
        defer { b.stop() }
        try await a.collector.subscribeToCommits()
        try await b.collector.subscribeToCommits()
        let opened = await RouterTestClient(server: a.server).stream(
            "GET", "/v1/events/stream?writeKey=\(CollectorHarness.writeKey)",
            headers: ["Authorization": "Bearer \(CollectorHarness.adminToken)"])
        #expect(opened.status == 200)
        var chunks = opened.chunks().makeAsyncIterator()
        let greeting = try await chunks.next()
        #expect(greeting.map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("retry: 2000") == true)
        let ingested = try await b.post(json: CollectorHarness.batch(1, prefix: "from-b"))
        #expect(ingested.status == 200)
        var text = ""
        while !text.contains("\n\n") {
            let chunk = try #require(try await chunks.next())
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text.contains("\"messageId\":\"from-b-0\""))
        // One publish for B's one commit; A heard it and B skipped its own.
        #expect(bus.published.load(ordering: .relaxed) == 1)
    }
}
