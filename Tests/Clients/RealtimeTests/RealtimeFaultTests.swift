import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Realtime
import Testing

/// Waits for `connection` to report `.state(.live)` `times` times.
func waitForLive(_ connection: RealtimeConnection, times: Int = 1) async {
    var count = 0
    for await event in connection.events where event == .state(.live) {
        count += 1
        if count >= times { return }
    }
}

/// Network faults from the proxy, against the real server: half-open TCP caught by keepalive,
/// and many clients spreading their reconnects over the jitter window.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct RealtimeFaultTests {
    @Test func aHalfOpenConnectionIsCaughtByTwoMissedPingsAndReplaced() async throws {
        let scene = try await LiveScene()
        defer { scene.close() }
        let clock = ManualClock()
        let authorization = scene.alice.authorization
        // Only the connection's keepalive, on the manual clock, may notice the half-open socket:
        // the socket layer's own real-time idle timeout (75 s) would close it first on a loaded
        // machine, where the steps below can take that long.
        var socketConfiguration = WebSocketConfiguration()
        socketConfiguration.idleTimeoutMilliseconds = 0
        socketConfiguration.pingIntervalMilliseconds = 0
        let transport = WebSocketTransport(
            client: scene.client, url: scene.messenger.socketURL, configuration: socketConfiguration
        ) { [("Authorization", authorization)] }
        let connection = RealtimeConnection(
            transport: transport, protocol: RequestResponseProtocol(), store: try RealtimeStore(path: ":memory:"),
            clock: clock, random: JitterSource(seed: 5))
        await connection.start()
        await waitForLive(connection)
        // Answered pings keep it.
        try await clock.waitForSleepers(2)
        clock.advance(by: .seconds(25))
        #expect(await poll { await connection.unansweredPings == 0 && clock.sleeperCount >= 2 })
        #expect(await connection.state == .live)
        scene.messenger.proxy.halfOpen()
        // Two pings go out unanswered; the third tick finds them missed and drops the socket.
        for missed in 1...2 {
            clock.advance(by: .seconds(25))
            #expect(await poll { await connection.unansweredPings == missed && clock.sleeperCount >= 1 })
            #expect(await connection.state == .live)
        }
        clock.advance(by: .seconds(25))
        #expect(await poll { if case .waiting = await connection.state { true } else { false } })
        guard case .waiting(_, let delay) = await connection.state else { return }
        try await clock.waitForSleepers(1)
        clock.advance(by: delay)
        await waitForLive(connection)
        #expect(scene.messenger.proxy.acceptedCount == 2)
        await connection.stop()
    }

    /// The delays are read from the connections' state, on a manual clock, rather than from
    /// when the proxy saw the reconnects: under load the arrival times bunch up whatever the
    /// clients chose, and that measured the machine, not the jitter.
    @Test func clientsReconnectingAfterARestartSpreadOverTheJitterWindow() async throws {
        let scene = try await LiveScene()
        defer { scene.close() }
        let messenger = scene.messenger
        let clock = ManualClock()
        var devices: [LiveDevice] = []
        for _ in 0..<24 { devices.append(try await messenger.register()) }
        var connections: [RealtimeConnection] = []
        for (index, device) in devices.enumerated() {
            var policy = ConnectionPolicy()
            policy.backoff = Backoff(base: .seconds(1), cap: .seconds(1))
            let authorization = device.authorization
            let transport = WebSocketTransport(client: scene.client, url: messenger.socketURL) {
                [("Authorization", authorization)]
            }
            let connection = RealtimeConnection(
                transport: transport, protocol: RequestResponseProtocol(), store: try RealtimeStore(path: ":memory:"),
                clock: clock, policy: policy, random: JitterSource(seed: UInt64(index + 1)))
            await connection.start()
            connections.append(connection)
        }
        for connection in connections { await waitForLive(connection) }
        let before = messenger.proxy.acceptedCount
        try await messenger.restart()
        // Every client has lost its socket and sleeps its jittered delay on the clock.
        var delays: [Double] = []
        for connection in connections {
            #expect(await poll { if case .waiting = await connection.state { true } else { false } })
            guard case .waiting(_, let delay) = await connection.state else { return }
            delays.append(Double(delay.wholeMilliseconds) / 1_000)
        }
        // Uniform over 1 s: 24 delays span most of it, and no tenth of a second holds a third.
        let spread = try #require(delays.max()) - (try #require(delays.min()))
        #expect(spread > 0.5)
        let buckets = Dictionary(grouping: delays) { Int($0 * 10) }.values.map(\.count)
        #expect(try #require(buckets.max()) <= devices.count / 3)
        // When the window has passed, every one of them is back.
        try await clock.waitForSleepers(devices.count)
        clock.advance(by: .seconds(1))
        for connection in connections { await waitForLive(connection) }
        #expect(messenger.proxy.acceptedCount - before >= devices.count)
        for connection in connections { await connection.stop() }
    }
}
