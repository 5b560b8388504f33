import AnalyticsCollector
import CourierCore
import CourierHTTP
import CourierTesting
import Testing

/// `GET /v1/events/stream` opened without a cursor: the newest stored events first, oldest first,
/// then what commits after them, with nothing missed or repeated at the seam; on every backend.
@Suite(.timeLimit(.minutes(2)))
struct EventStreamReplayTests {
    /// A stream's text as it arrives, read chunk by chunk until a marker shows.
    struct Reader {
        var chunks: AsyncThrowingStream<[UInt8], any Error>.AsyncIterator
        var text = ""

        /// Reads until `marker` has arrived; returns everything read so far.
        mutating func read(until marker: String) async throws -> String {
            while !text.contains(marker) {
                let chunk = try #require(try await chunks.next(), "the stream ended before \(marker): \(text)")
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }

        /// The `messageId`s of the `data:` lines so far, in order.
        var messageIds: [String] {
            text.split(separator: "\n").filter { $0.hasPrefix("data: ") }.compactMap { line in
                (try? JSONParser.parse(Array(line.dropFirst(6).utf8)))?["event"]?["messageId"]?.stringValue
            }
        }
    }

    static func harness(_ backend: CollectorBackend, store: (any EventStore)? = nil) async throws -> CollectorHarness {
        try await CollectorHarness(backend: backend, store: store) { $0.liveStreamInterval = .zero }
    }

    /// Opens the stream with `query` and reads its greeting (and what came with it).
    static func open(_ harness: CollectorHarness, query: String = "") async throws -> (
        status: HTTPStatus, reader: Reader
    ) {
        let opened = await RouterTestClient(server: harness.server).stream(
            "GET", "/v1/events/stream?writeKey=\(CollectorHarness.writeKey)\(query)",
            headers: ["Authorization": "Bearer \(CollectorHarness.adminToken)"])
        var reader = Reader(chunks: opened.chunks().makeAsyncIterator())
        if opened.status == 200 { _ = try await reader.read(until: "retry: 2000") }
        return (opened.status, reader)
    }

    @Test(arguments: [CollectorBackend.memory, .file, .postgres])
    func withoutACursorTheNewestTwentyComeFirstOldestFirstThenLiveOnes(backend: CollectorBackend) async throws {
        let harness = try await Self.harness(backend)
        defer { harness.stop() }
        #expect(try await harness.post(json: CollectorHarness.batch(25, prefix: "old")).status == 200)
        var (status, reader) = try await Self.open(harness)
        #expect(status == 200)
        _ = try await reader.read(until: "\"old-24\"")
        #expect(reader.messageIds == (5..<25).map { "old-\($0)" })
        #expect(try await harness.post(json: CollectorHarness.batch(2, prefix: "new")).status == 200)
        _ = try await reader.read(until: "\"new-1\"")
        #expect(reader.messageIds == (5..<25).map { "old-\($0)" } + ["new-0", "new-1"])
        #expect(reader.text.contains("id: 27\n"))
    }

    @Test(arguments: [CollectorBackend.memory, .file, .postgres])
    func anEventCommittedBetweenTheSubscriptionAndTheReadShowsOnce(backend: CollectorBackend) async throws {
        let store = FaultInjectingStore(try await backend.makeEventStore())
        let harness = try await Self.harness(backend, store: store)
        defer { harness.stop() }
        #expect(try await harness.post(json: CollectorHarness.batch(1, prefix: "old")).status == 200)
        let payload = JSONWriter.encode(["type": "track", "event": "Seam", "messageId": "seam-0"])
        store.commitBeforeRecentRead.withLock { pending in
            pending = [
                PreparedMessage(
                    writeKey: CollectorHarness.writeKey, messageId: "seam-0", type: "track",
                    receivedAt: harness.clock.nowMilliseconds, payload: payload)
            ]
        }
        var (_, reader) = try await Self.open(harness)
        _ = try await reader.read(until: "\"seam-0\"")
        #expect(try await harness.post(json: CollectorHarness.batch(1, prefix: "live")).status == 200)
        _ = try await reader.read(until: "\"live-0\"")
        #expect(reader.messageIds == ["old-0", "seam-0", "live-0"])
    }

    @Test(arguments: [CollectorBackend.memory, .postgres])
    func lastChoosesHowManyAndACursorKeepsItsMeaning(backend: CollectorBackend) async throws {
        let harness = try await Self.harness(backend)
        defer { harness.stop() }
        #expect(try await harness.post(json: CollectorHarness.batch(5, prefix: "old")).status == 200)
        var (_, three) = try await Self.open(harness, query: "&last=3")
        _ = try await three.read(until: "\"old-4\"")
        #expect(three.messageIds == ["old-2", "old-3", "old-4"])

        var (_, none) = try await Self.open(harness, query: "&last=0")
        var (_, cursor) = try await Self.open(harness, query: "&after=5")
        #expect(try await harness.post(json: CollectorHarness.batch(1, prefix: "live")).status == 200)
        _ = try await none.read(until: "\"live-0\"")
        _ = try await cursor.read(until: "\"live-0\"")
        #expect(none.messageIds == ["live-0"])
        #expect(cursor.messageIds == ["live-0"])

        #expect(try await Self.open(harness, query: "&last=201").status == 400)
        #expect(try await Self.open(harness, query: "&after=0&last=3").status == 400)
    }
}
