import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Sync
import Testing

/// A server that asks for a pause (429 or 503 with `Retry-After`) is left alone for that long.
@Suite(.timeLimit(.minutes(1)))
struct SyncRetryAfterTests {
    /// A sync server that refuses every poke with `status` and `Retry-After: retryAfter`, and
    /// tells each poke it refused to `pokes`.
    private static func refusingServer(
        status: HTTPStatus, retryAfter: String, pokes: AsyncStream<Void>.Continuation
    ) throws -> HTTPServer {
        var router = Router()
        router.add("GET", "/v1/sync/poke") { _ in
            pokes.yield()
            return .json(
                ["error": ["code": "rate_limited", "message": "try again later"]], status: status,
                headers: [("Retry-After", retryAfter)])
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }

    @Test(arguments: [
        (HTTPStatus.tooManyRequests, "30", 30), (.serviceUnavailable, "30", 30),
        // A wait of an hour is cut to `longestRetryAfter`.
        (.serviceUnavailable, "3600", 300),
    ])
    func theWatcherWaitsTheTimeTheServerAskedForBeforePokingAgain(
        status: HTTPStatus, retryAfter: String, waitedSeconds: Int64
    ) async throws {
        #expect(SyncClient.longestRetryAfter == .seconds(300))
        let (pokes, pokeSeen) = AsyncStream<Void>.makeStream()
        let server = try Self.refusingServer(status: status, retryAfter: retryAfter, pokes: pokeSeen)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-retry-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock()
        let client = try SyncClient(
            path: directory + "/client.sqlite",
            transport: HTTPSyncTransport(baseURL: server.baseURL, token: "t-alice", clock: clock), clock: clock)
        let watcher = Task { await client.watchPokes() }
        defer { watcher.cancel() }
        var seen = pokes.makeAsyncIterator()
        await seen.next()
        // Refused: the watcher sleeps on the clock. Its back-off alone (full jitter, at most 2 s
        // after a first failure) would have ended a second before the wait asked for.
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(waitedSeconds - 1))
        #expect(clock.sleeperCount == 1, "the watcher poked again before the wait the server asked for")
        clock.advance(by: .seconds(1))
        await seen.next()
        try await clock.waitForSleepers(1)
    }

    @Test func theTransportSaysHowLongTheServerAskedToWaitInEitherForm() async throws {
        let (_, pokeSeen) = AsyncStream<Void>.makeStream()
        let clock = ManualClock()
        // 2026-12-04 12:00:00 UTC; the server asks for 12:01:30.
        clock.setWallTime(Date(timeIntervalSince1970: 1_796_385_600))
        for (value, expected) in [
            ("120", Duration.seconds(120)), ("Fri, 04 Dec 2026 12:01:30 GMT", .seconds(90)),
            ("Fri, 04 Dec 2026 11:00:00 GMT", .zero), ("soon", nil),
        ] {
            let server = try Self.refusingServer(status: .tooManyRequests, retryAfter: value, pokes: pokeSeen)
            defer { server.stop() }
            let transport = HTTPSyncTransport(baseURL: server.baseURL, token: "t-alice", clock: clock)
            do {
                _ = try await transport.poke(since: nil, wait: .seconds(1))
                Issue.record("a refused poke was taken as an answer")
            } catch {
                #expect(error.code == .transport)
                #expect(error.retryAfter == expected, "Retry-After: \(value)")
            }
        }
    }
}
