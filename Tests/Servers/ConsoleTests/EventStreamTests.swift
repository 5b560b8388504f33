import CourierCore
import CourierTesting
import Foundation
import Testing

/// `GET /v1/events/stream`: the live debugger's Server-Sent Events.
@Suite(.timeLimit(.minutes(1)))
struct EventStreamTests {
    /// Opens the stream over a raw socket and returns it with what arrived up to the first event.
    static func open(_ harness: ConsoleHarness, cookie: String, query: String = "") async throws -> RawSocket {
        let port = harness.server.port
        let socket = try await offPool {
            let socket = try RawSocket(port: port, timeoutSeconds: 20)
            try socket.send(
                "GET /v1/events/stream?writeKey=\(ConsoleHarness.writeKey)\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Cookie: \(cookie)\r\nAccept: text/event-stream\r\n\r\n")
            return socket
        }
        _ = try await read(socket, until: "retry: 2000")
        return socket
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
