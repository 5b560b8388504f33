import CourierCore
import CourierTesting
import Foundation
import Sync
import Testing

/// The sync routes as `courier-server` mounts them, across a SIGKILL and a restart on the same
/// data directory or the same PostgreSQL database (`--database`): clients keep their cursors (the
/// signing key lives in the store) and converge.
@Suite(.timeLimit(.minutes(1)))
struct CourierServerSyncTests {
    @Test(arguments: StoreBackend.allCases)
    func clientsSyncThroughCourierServerAcrossAKill(backend: StoreBackend) async throws {
        let executable = try #require(
            builtExecutable(named: "courier-server"), "build courier-server first (swift build)")
        let data = NSTemporaryDirectory() + "courier-sync-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let database = backend == .postgres ? ["--database", try await TestPostgres.shared.makeDatabase()] : []
        let first = try await Self.start(executable, data, database)
        let laptopFile = data + "-laptop.sqlite"
        let phoneFile = data + "-phone.sqlite"
        defer {
            try? FileManager.default.removeItem(atPath: laptopFile)
            try? FileManager.default.removeItem(atPath: phoneFile)
        }
        let laptop = try SyncClient(path: laptopFile, transport: HTTPSyncTransport(baseURL: first.1, token: "t-alice"))
        let id = try await laptop.create("notes", fields: ["title": "before the kill"])
        #expect(try await laptop.sync().applied == 1)
        var phone = try SyncClient(path: phoneFile, transport: HTTPSyncTransport(baseURL: first.1, token: "t-alice"))
        try await phone.sync()
        first.0.signal(SIGKILL)
        _ = await runOffPool { first.0.wait() }

        let second = try await Self.start(executable, data, database)
        defer { second.0.terminate() }
        let laptopAgain = try SyncClient(
            path: laptopFile, transport: HTTPSyncTransport(baseURL: second.1, token: "t-alice"))
        try await laptopAgain.set("notes", id: id, fields: ["title": "after the restart"])
        try await laptopAgain.sync()
        phone = try SyncClient(path: phoneFile, transport: HTTPSyncTransport(baseURL: second.1, token: "t-alice"))
        let report = try await phone.sync()
        #expect(!report.refetched)
        #expect(report.pulled == 1)
        #expect(try await phone.record("notes", id: id)?.fields == ["title": "after the restart"])
        #expect(try await phone.checksum() == laptopAgain.checksum())
    }

    private static func start(_ executable: String, _ data: String, _ extra: [String]) async throws -> (
        ChildProcess, String
    ) {
        let process = try ChildProcess(
            executable, ["--port", "0", "--data-dir", data, "--write-key", "k", "--quiet"] + extra,
            environment: ["COURIER_SYNC_TOKENS": "t-alice=alice,t-bob=bob"], output: .pipe, errorOutput: .discard)
        guard let output = process.output else { throw SyncError(.invalidArgument, "no pipe") }
        let line = await runOffPool { () -> String in
            var text = ""
            while !text.contains("\n") {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        let range = try #require(line.range(of: "http://127.0.0.1:"), "courier-server printed no address")
        return (process, "http://127.0.0.1:" + line[range.upperBound...].prefix { $0.isNumber })
    }
}
