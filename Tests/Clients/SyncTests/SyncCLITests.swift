import CourierCore
import CourierTesting
import Foundation
import Testing

/// `courier sync`, run as a new user would: two data directories are two installations of one
/// owner, and what one adds or changes the other lists after its own sync.
@Suite(.timeLimit(.minutes(2)))
struct SyncCLITests {
    static func courier(_ arguments: [String], server: String) async throws -> ChildProcess.Outcome {
        let cli = try #require(builtExecutable(named: "courier"), "build courier first (swift build)")
        let all = arguments + ["--server", server, "--token", SyncHarness.token]
        return try await offPool { try ChildProcess.run(cli, all) }
    }

    /// The cells of `list`'s rows after the header: id, version, state, fields.
    static func rows(_ output: String) -> [[String]] {
        output.split(separator: "\n").dropFirst().map { line in
            let json = line.firstIndex(of: "{") ?? line.endIndex
            return line[..<json].split(separator: " ").map(String.init) + [String(line[json...])]
        }
    }

    @Test func twoDataDirectoriesConvergeThroughTheServerAndAnOfflineChangeWaits() async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let directory = NSTemporaryDirectory() + "sync-cli-" + Identifier.uuid()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (phone, laptop) = (["--data-dir", directory + "/phone"], ["--data-dir", directory + "/laptop"])

        let added = try await Self.courier(
            ["sync", "add", "notes", "title=Groceries", "done=false"] + phone, server: harness.baseURL)
        #expect(added.status == 0, "\(added.errorOutput)")
        #expect(added.output.contains("synced with \(harness.baseURL): pushed 1, pulled"), "\(added.output)")

        let listed = try await Self.courier(["sync", "list", "notes"] + laptop, server: harness.baseURL)
        #expect(listed.status == 0, "\(listed.errorOutput)")
        #expect(
            listed.errorOutput.contains("pulled 1"), "the sync's report goes beside the table: \(listed.errorOutput)")

        #expect(listed.output.hasPrefix("ID"), "\(listed.output)")
        let row = try #require(Self.rows(listed.output).first, "\(listed.output)")
        #expect(row.dropFirst() == ["1", "synced", #"{"done":false,"title":"Groceries"}"#], "\(listed.output)")

        let changed = try await Self.courier(
            ["sync", "set", "notes", row[0], "done=true"] + laptop, server: harness.baseURL)
        #expect(changed.status == 0, "\(changed.errorOutput)")
        let onPhone = try await Self.courier(["sync", "list", "notes"] + phone, server: harness.baseURL)
        #expect(
            Self.rows(onPhone.output).first?.last == #"{"done":true,"title":"Groceries"}"#, "\(onPhone.output)")

        // The server is down: the change is kept and waits; the next sync sends it.
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let offline = try await Self.courier(
            ["sync", "add", "notes", "title=Later"] + phone, server: down.url)
        #expect(offline.status == 0, "\(offline.errorOutput)")
        #expect(offline.errorOutput.contains("not synced"), "\(offline.errorOutput)")
        #expect(offline.errorOutput.contains("1 change waits in \(directory)/phone"), "\(offline.errorOutput)")
        let local = try await Self.courier(["sync", "list", "notes", "--offline"] + phone, server: harness.baseURL)
        #expect(Self.rows(local.output).filter { $0.count > 2 && $0[2] == "pending" }.count == 1, "\(local.output)")
        let caughtUp = try await Self.courier(["sync", "list", "notes"] + laptop, server: harness.baseURL)
        #expect(Self.rows(caughtUp.output).count == 1, "not sent yet: \(caughtUp.output)")
        _ = try await Self.courier(["sync", "list", "notes"] + phone, server: harness.baseURL)
        let both = try await Self.courier(["sync", "list", "notes"] + laptop, server: harness.baseURL)
        #expect(Self.rows(both.output).count == 2, "\(both.output)")

        let unknown = try await Self.courier(["sync", "set", "notes", "nope", "a=1"] + phone, server: harness.baseURL)
        #expect(unknown.status == 1)
        #expect(unknown.errorOutput.contains("there is no notes/nope"), "\(unknown.errorOutput)")
    }
}
