import CourierTesting
import Foundation
import Testing

/// The fixed ports the cluster suite starts its servers on, and how it notices one that exited.
struct TestClusterPortTests {
    /// The kernel's ephemeral range, which client sockets and port-0 servers take ports from.
    static func ephemeralRange() throws -> ClosedRange<Int> {
        let text = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let bounds = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(bounds.count == 2)
        return bounds[0]...bounds[1]
    }

    /// A port from the ephemeral range could be taken by any test's client socket or port-0
    /// server between the check and haproxy's `bind` (haproxy then never answers).
    @Test func portsForFixedServersLieBelowTheEphemeralRangeAndAreNeverHandedOutTwice() throws {
        let ephemeral = try Self.ephemeralRange()
        let ports = try (0..<64).map { _ in try freeLoopbackPort() }
        #expect(Set(ports).count == ports.count)
        for port in ports { #expect(port < ephemeral.lowerBound && port >= 1_024, "port \(port)") }
    }

    @Test func aServerThatExitsEndsItsHealthCheckAtOnce() async throws {
        let process = try ChildProcess("/bin/sh", ["-c", "exit 3"], output: .discard, errorOutput: .discard)
        let started = ContinuousClock.now
        let answered = await TestCluster.answersHealthCheck(port: try freeLoopbackPort(), unlessExited: process)
        #expect(!answered)
        #expect(process.hasExited)
        #expect(await runOffPool { process.wait() } == 3)
        // The check would otherwise poll its whole 60 s.
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
