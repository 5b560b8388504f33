import AnalyticsCollector
import CourierCore
import CourierTesting
import Foundation
import Testing

/// `GET /v1/events/stream`: the live debugger's Server-Sent Events.
@Suite(.timeLimit(.minutes(1)))
struct EventStreamTests {
    /// Opens the stream over a raw socket and returns it with what arrived up to the first event.
    static func open(_ harness: ConsoleHarness, cookie: String, query: String = "") async throws -> RawSocket {
        let socket = try await connect(harness, cookie: cookie, query: query)
        _ = try await read(socket, until: "retry: 2000")
        return socket
    }

    /// Sends the stream's request (with `extraHeaders`, each `Name: value`) and reads nothing yet.
    static func connect(
        _ harness: ConsoleHarness, cookie: String, query: String = "", extraHeaders: [String] = []
    ) async throws -> RawSocket {
        let port = harness.server.port
        return try await offPool {
            let socket = try RawSocket(port: port, timeoutSeconds: 20)
            try socket.send(
                "GET /v1/events/stream?writeKey=\(ConsoleHarness.writeKey)\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Cookie: \(cookie)\r\nAccept: text/event-stream\r\n"
                    + extraHeaders.map { $0 + "\r\n" }.joined() + "\r\n")
            return socket
        }
    }

    /// The store ids of the `data:` lines in `text`, in order.
    static func ids(_ text: String) -> [Int] {
        text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("data: ") }.compactMap { line in
            (try? JSONParser.parse(Array(line.dropFirst(6).utf8)))?["id"]?.intValue.map { Int($0) }
        }
    }

    /// The `id:` lines in `text`, in order.
    static func idLines(_ text: String) -> [Int] {
        text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("id: ") }.compactMap { Int($0.dropFirst(4)) }
    }

    @Test func aReconnectWithLastEventIDGetsExactlyTheEventsStoredMeanwhileInOrder() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        let session = try await harness.signIn()
        _ = try await harness.track((0..<3).map { ObservationEndpointTests.event("track", "Before", id: "a\($0)") })
        // The same URL both times, as an EventSource reconnects: the header wins over `last`.
        var first: RawSocket? = try await Self.connect(harness, cookie: session.cookie, query: "&last=2")
        let seen = try await Self.read(try #require(first), until: "id: 3\n")
        #expect(Self.ids(seen) == [2, 3])
        #expect(Self.idLines(seen) == [2, 3])
        first = nil
        // More than the 20 a fresh stream replays are stored while no one listens.
        _ = try await harness.track((0..<30).map { ObservationEndpointTests.event("track", "Gap", id: "g\($0)") })
        let resumed = try await Self.connect(
            harness, cookie: session.cookie, query: "&last=2", extraHeaders: ["Last-Event-ID: 3"])
        var text = try await Self.read(resumed, until: "id: 33\n")
        #expect(Self.ids(text) == Array(4...33))
        _ = try await harness.track([ObservationEndpointTests.event("track", "Live", id: "l0")])
        text += try await Self.read(resumed, until: "id: 34\n")
        #expect(Self.ids(text) == Array(4...34))
        #expect(Self.idLines(text) == Array(4...34))
        #expect(!text.contains("event: skipped"))
    }

    @Test func aResumeFurtherBehindThanItsLimitSendsTheLimitThenSaysWhatWasSkipped() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        let session = try await harness.signIn()
        let total = Collector.liveStreamResumeLimit + 50
        for start in stride(from: 0, to: total, by: 250) {
            let batch = (start..<min(start + 250, total)).map {
                ObservationEndpointTests.event("track", "Bulk", id: "b\($0)")
            }
            _ = try await harness.track(batch)
        }
        let socket = try await Self.connect(harness, cookie: session.cookie, extraHeaders: ["Last-Event-ID: 0"])
        let marker = "event: skipped\ndata: {\"from\":\(Collector.liveStreamResumeLimit),\"to\":\(total)}"
        let text = try await Self.read(socket, until: marker)
        #expect(Self.ids(text) == Array(1...Collector.liveStreamResumeLimit))
    }

    @Test func aLastEventIDThatIsNoIdIsRefused() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        let session = try await harness.signIn()
        let socket = try await Self.connect(harness, cookie: session.cookie, extraHeaders: ["Last-Event-ID: soon"])
        let text = try await Self.read(socket, until: "\r\n\r\n")
        #expect(text.hasPrefix("HTTP/1.1 400"))
    }

    /// Reads until `marker` has arrived; returns everything read.
    static func read(_ socket: RawSocket, until marker: String) async throws -> String {
        try await offPool {
            var text = ""
            while !text.contains(marker) {
                guard let bytes = socket.read() else {
                    throw RawSocket.Failure(description: "stream ended before \(marker): \(text)")
                }
                text += String(decoding: bytes, as: UTF8.self)
            }
            return text
        }
    }

    @Test func storedEventsArriveAsTheyCommitAsJSONWithTheirStoreId() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        let session = try await harness.signIn()
        _ = try await harness.track([ObservationEndpointTests.event("track", "Before", id: "s0")])
        // `last=0`: only what commits from now on (the replay of stored events has tests of its own).
        let socket = try await Self.open(harness, cookie: session.cookie, query: "&last=0")
        #expect(harness.collector.configuration.maximumLiveStreams == 16)
        let hostile = "<img src=x onerror=alert(1)>"
        _ = try await harness.track([
            [
                "type": "track", "event": "Live", "userId": "u1", "messageId": "s1",
                "properties": ["note": .string(hostile)],
            ]
        ])
        let text = try await Self.read(socket, until: "\n\n")
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("data: ") })
        let item = try JSONParser.parse(Array(line.dropFirst(6).utf8))
        #expect(item["id"]?.intValue == 2)
        #expect(item["event"]?["event"]?.stringValue == "Live")
        #expect(item["event"]?["properties"]?["note"]?.stringValue == hostile)
        #expect(item["event"]?["receivedAt"]?.stringValue == "2026-11-29T08:00:00.000Z")
        #expect(!text.contains("Before"))
    }

    @Test func aStreamFarBehindShowsAPageAsASampleThenSkipsToTheNewestAndSaysSo() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        let session = try await harness.signIn()
        let socket = try await Self.open(harness, cookie: session.cookie, query: "&after=0")
        let batch = (0..<250).map { ObservationEndpointTests.event("track", "Bulk", id: "b\($0)") }
        _ = try await harness.track(batch)
        let text = try await Self.read(socket, until: "event: skipped\ndata: {\"from\":200,\"to\":250}")
        #expect(text.components(separatedBy: "data: {\"event\":").count - 1 == 200)
        #expect(text.contains("id: 1\n"))
        #expect(!text.contains("id: 201\n"))
    }

    @Test func aClosedStreamFreesItsPlaceAndStreamsBeyondTheLimitAreRefused() async throws {
        let harness = try ConsoleHarness(configureCollector: { $0.maximumLiveStreams = 1 })
        defer { harness.stop() }
        let session = try await harness.signIn()
        var socket: RawSocket? = try await Self.open(harness, cookie: session.cookie)
        #expect(harness.collector.liveStreamCount == 1)
        let refused = try await harness.request(
            "GET", "/v1/events/stream?writeKey=\(ConsoleHarness.writeKey)", headers: session.readHeaders)
        #expect(refused.status == 429)
        #expect(refused.header("retry-after") == "5")
        #expect(socket != nil)
        socket = nil
        // Nothing is committed, so nothing is written to the closed socket: the engine's tick
        // finds the reader gone by itself and cancels the stream.
        #expect(await poll(timeout: .seconds(20)) { harness.collector.liveStreamCount == 0 })
        let metrics = harness.collector.metricsText()
        #expect(metrics.contains("courier_collector_live_streams 0"))
        _ = try await Self.open(harness, cookie: session.cookie)
    }

    @Test func theStreamNeedsTheAdminToken() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        let answer = try await harness.request("GET", "/v1/events/stream?writeKey=\(ConsoleHarness.writeKey)")
        #expect(answer.status == 403)
        let bearer = try await harness.request(
            "GET", "/v1/events/stream?writeKey=", headers: ["Authorization": "Bearer \(ConsoleHarness.adminToken)"])
        #expect(bearer.status == 400)
    }
}
