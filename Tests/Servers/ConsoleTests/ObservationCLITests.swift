import CourierCore
import CourierTesting
import Testing

/// The CLI reads the same admin routes the console's page reads.
@Suite(.timeLimit(.minutes(1)))
struct ObservationCLITests {
    static func courier(_ harness: ConsoleHarness, _ arguments: [String]) async throws -> ChildProcess.Outcome {
        let cli = try #require(builtExecutable(named: "courier"), "build courier first (swift build)")
        let all =
            arguments + ["--server", harness.server.baseURL, "--admin-token", ConsoleHarness.adminToken]
        return try await offPool { try ChildProcess.run(cli, all) }
    }

    @Test func sourcesListAndSettingsHistoryPrintTheConsolesJSONWithTheJSONFlag() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        _ = try await harness.track([ObservationEndpointTests.event("track", "Opened", id: "c1")])
        let list = try await Self.courier(harness, ["sources", "list", "--json"])
        #expect(list.status == 0, "\(list.errorOutput)")
        let projects = try JSONParser.parse(Array(list.output.utf8))
        let first = projects["projects"]?.arrayValue?.first
        #expect(first?["writeKey"]?.stringValue == ConsoleHarness.writeKey)
        #expect(first?["perMinute"]?.arrayValue?.last?.intValue == 1)

        let set = try await Self.courier(harness, ["settings", "set", ConsoleHarness.writeKey, "--sample-rate", "25"])
        #expect(set.status == 0, "\(set.errorOutput)")
        let history = try await Self.courier(harness, ["settings", "history", ConsoleHarness.writeKey, "--json"])
        let entries = try JSONParser.parse(Array(history.output.utf8))["entries"]?.arrayValue
        #expect(entries?.first?["after"]?["sampleRate"]?.intValue == 25)

        let rejections = try await Self.courier(harness, ["sources", "rejections", ConsoleHarness.writeKey])
        #expect(rejections.status == 0)
        let unknown = try await Self.courier(harness, ["sources", "volume"])
        #expect(unknown.status == 1)
    }

    @Test func theViewsPrintTablesByDefault() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        _ = try await harness.track([ObservationEndpointTests.event("track", "Opened", id: "t1")])
        let list = try await Self.courier(harness, ["sources", "list"])
        #expect(list.status == 0, "\(list.errorOutput)")
        let lines = list.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("WRITE KEY") == true, "\(list.output)")
        let row = try #require(lines.first { $0.hasPrefix(ConsoleHarness.writeKey) }, "\(list.output)")
        #expect(row.split(separator: " ", omittingEmptySubsequences: true).suffix(2) == ["1", "1"], "\(row)")

        #expect(
            try await Self.courier(harness, ["settings", "set", ConsoleHarness.writeKey, "--sample-rate", "25"]).status
                == 0)
        let history = try await Self.courier(harness, ["settings", "history", ConsoleHarness.writeKey])
        #expect(history.output.hasPrefix("AT"), "\(history.output)")
        #expect(history.output.contains("sampleRate 100 → 25"), "\(history.output)")

        let volume = try await Self.courier(harness, ["sources", "volume", ConsoleHarness.writeKey])
        #expect(volume.output.contains("TYPE"), "\(volume.output)")
        #expect(volume.output.split(separator: "\n").contains { $0.hasPrefix("track ") }, "\(volume.output)")
    }
}
