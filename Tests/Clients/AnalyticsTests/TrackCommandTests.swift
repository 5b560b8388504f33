import Analytics
import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// `courier track`, the built executable, against the real collector: its last line says how
/// many events the collector stored and, when it stored none, why.
@Suite(.timeLimit(.minutes(3)))
struct TrackCommandTests {
    let storage: URL

    init() throws { storage = try RealCollectorTests.storage() }

    func track(_ server: String, _ arguments: [String], name: String = "Signed Up") async throws -> ChildProcess.Outcome
    {
        let courier = try #require(builtExecutable(named: "courier"), "build courier first (swift build)")
        let all =
            ["track", name] + arguments + [
                "--server", server, "--write-key", RealCollectorTests.writeKey, "--data-dir", storage.path,
                "--drain-seconds", "5",
            ]
        return try await offPool { try ChildProcess.run(courier, all) }
    }

    func setSettings(_ collector: RealCollectorTests.Collector_, _ patch: JSONValue) async throws {
        let response = try await collector.client.sendJSON(
            "PUT", collector.server.baseURL + "/v1/projects/\(RealCollectorTests.writeKey)/settings", patch,
            headers: ["Authorization": "Bearer \(RealCollectorTests.adminToken)"])
        #expect(response.status == 200)
    }

    @Test func successPrintsTheCountsTheCollectorStored() async throws {
        let collector = try RealCollectorTests.Collector_()
        defer { collector.stop() }
        let outcome = try await track(collector.server.baseURL, ["--count", "3", "--user-id", "user-7"])
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.errorOutput.hasSuffix("courier: tracked 4, sent 4\n"), "\(outcome.errorOutput)")
        // Three tracks and the identify.
        #expect(try await collector.events().count == 4)
    }

    /// Five times what the SDK's 8 MB queue holds (2,000 events of 20 KB): the command waits
    /// for each block's upload (blocks sized by the events' bytes), so none is pushed out of the
    /// queue before it is sent. With blocks of 10,000 calls whatever their size, 702 were sent.
    @Test func aCountLargerThanTheQueueIsSentWhole() async throws {
        let collector = try RealCollectorTests.Collector_()
        defer { collector.stop() }
        let blob = String(repeating: "x", count: 20_000)
        let outcome = try await track(collector.server.baseURL, ["--count", "2000", "--prop", "blob=\(blob)"])
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.errorOutput.hasSuffix("courier: tracked 2000, sent 2000\n"), "\(outcome.errorOutput)")
        #expect(try await collector.events().count == 2000)
    }

    @Test func aServerThatIsDownIsNamedWithItsURL() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let url = closed.url
        let outcome = try await track(url, [])
        #expect(outcome.status == 2)
        #expect(
            outcome.errorOutput.contains("tracked 1, sent 0, still queued 1: connection refused to \(url)"),
            "\(outcome.errorOutput)")
    }

    /// A count of several blocks against a collector that takes nothing stops after the first
    /// block instead of filling the queue with the rest.
    @Test func trackingStopsAfterABlockTheCollectorDidNotTake() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let url = closed.url
        let outcome = try await track(url, ["--count", "25000"])
        #expect(outcome.status == 2)
        #expect(
            outcome.errorOutput.contains("tracked 10000, sent 0, still queued 10000: connection refused to \(url)"),
            "\(outcome.errorOutput)")
    }

    @Test func theKillSwitchIsNamed() async throws {
        let collector = try RealCollectorTests.Collector_()
        defer { collector.stop() }
        try await setSettings(collector, ["enabled": false])
        let outcome = try await track(collector.server.baseURL, [])
        #expect(outcome.status == 2)
        #expect(outcome.errorOutput.contains("sent 0"), "\(outcome.errorOutput)")
        // Either the collector refused the batch (403), or the SDK read the settings first and
        // dropped the events itself.
        #expect(outcome.errorOutput.contains("the project's kill switch is on"), "\(outcome.errorOutput)")
        #expect(
            outcome.errorOutput.contains("403 project_disabled")
                || outcome.errorOutput.contains("dropped by the kill switch 1"), "\(outcome.errorOutput)")
        #expect(try await collector.events().isEmpty)
    }

    @Test func aSampledOutUserIsToldSoWithTheRate() async throws {
        let collector = try RealCollectorTests.Collector_()
        defer { collector.stop() }
        try await setSettings(collector, ["sampleRate": 50])
        let user = try #require((1...100).map { "user-\($0)" }.first { !Sampler.isSampled($0, rate: 50) })
        let outcome = try await track(collector.server.baseURL, ["--user-id", user])
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(
            outcome.errorOutput.contains(
                "tracked 2, sent 0, sampled out 2: sampled out at 50 %: user \(user) is outside the project's sample"),
            "\(outcome.errorOutput)")
        #expect(try await collector.events().isEmpty)
    }

    /// The README tour's order: a first `track` leaves the settings in the SDK's store; the rate
    /// then changes, and the next `track` follows the new rate, not the stored one.
    @Test func aRateChangedSinceTheLastRunAppliesToTheNextOne() async throws {
        let collector = try RealCollectorTests.Collector_()
        defer { collector.stop() }
        let user = try #require((1...100).map { "user-\($0)" }.first { !Sampler.isSampled($0, rate: 50) })
        let first = try await track(collector.server.baseURL, ["--user-id", user])
        #expect(first.status == 0, "\(first.errorOutput)")
        #expect(first.errorOutput.contains("sent 2"), "\(first.errorOutput)")
        try await setSettings(collector, ["sampleRate": 50])
        let second = try await track(collector.server.baseURL, ["--user-id", user])
        #expect(second.status == 0, "\(second.errorOutput)")
        #expect(second.errorOutput.contains("sent 0, sampled out 2"), "\(second.errorOutput)")
        #expect(try await collector.events().count == 2, "only the first run's events were stored")
    }

    @Test func aServerWithoutACollectorIsNotTakenForOne() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: Router())
        try server.start()
        defer { inBackground { server.stop() } }
        let outcome = try await track(server.baseURL, [])
        #expect(outcome.status == 2)
        // The SDK drops what a 404 refuses; the line says the host was the mistake.
        #expect(outcome.errorOutput.contains("sent 0"), "\(outcome.errorOutput)")
        #expect(
            outcome.errorOutput.contains("\(server.baseURL) is not a Courier server (unexpected answer: 404"),
            "\(outcome.errorOutput)")
    }

    @Test func anEventTheCollectorRefusesIsCountedApartWithWhereToLook() async throws {
        let collector = try RealCollectorTests.Collector_()
        defer { collector.stop() }
        // A track without a name is invalid.
        let outcome = try await track(collector.server.baseURL, [], name: "")
        #expect(outcome.status == 2)
        #expect(
            outcome.errorOutput.contains(
                "tracked 1, sent 0, refused as invalid 1: the collector refused 1 as invalid (courier sources rejections"
            ),
            "\(outcome.errorOutput)")
    }
}
