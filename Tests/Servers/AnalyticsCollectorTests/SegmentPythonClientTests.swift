import AnalyticsCollector
import CourierCore
import CourierTesting
import Foundation
import Testing

/// A client that no one here wrote: Segment's `segment-analytics-python`, installed in the
/// project's venv by `make test`, sends through its own queue to the real collector.
@Suite(.timeLimit(.minutes(3)))
struct SegmentPythonClientTests {
    static let packageRoot = ProjectPaths.packageRoot

    static var python: String { ProjectPaths.python }

    @Test func thousandEventsFromSegmentsPythonLibraryArriveIntact() async throws {
        let python = Self.python
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "no Python venv at \(python): run `make test` (or scripts/bootstrap) first")
        let harness = try await CollectorHarness(backend: .file)
        defer { harness.stop() }
        let script = Self.packageRoot.appendingPathComponent("Tests/peers/segment_python_send.py").path
        let baseURL = harness.server.baseURL
        let (status, errorOutput) = await runOffPool { () -> (Int32, String) in
            do {
                let outcome = try ChildProcess.run(python, [script, baseURL, CollectorHarness.writeKey, "1000"])
                return (outcome.status, outcome.errorOutput)
            } catch { return (-1, "\(error)") }
        }
        #expect(status == 0, "python client failed: \(errorOutput)")

        let events = try await harness.storedEvents(pageSize: 250)
        #expect(events.count == 1000)
        let byId = Dictionary(events.compactMap { e in e["messageId"]?.stringValue.map { ($0, e) } }) { a, _ in a }
        #expect(byId.count == 1000)
        for i in 0..<1000 {
            guard let event = byId["peer-\(i)"] else {
                Issue.record("peer-\(i) is missing")
                continue
            }
            #expect(event["type"] == "track")
            #expect(event["event"] == "Peer Event")
            #expect(event["userId"]?.stringValue == "peer-user-\(i % 10)")
            #expect(
                event["properties"] == [
                    "index": .int(Int64(i)), "price": 19.99, "tags": ["a", "b"], "nested": ["k": nil],
                ])
            #expect(event["context"]?["library"]?["name"] == "analytics-python")
            #expect(event["receivedAt"] == "2026-11-29T08:00:00.000Z")
            // The library sets both `timestamp` and `sentAt`, so the stored timestamp is corrected.
            #expect(event["originalTimestamp"]?.stringValue.flatMap(Timestamp.parseMilliseconds) != nil)
            #expect(event["sentAt"]?.stringValue != nil)
            #expect(event["timestamp"]?.stringValue.flatMap(Timestamp.parseMilliseconds) != nil)
        }
    }
}
