import CourierCore
import CourierTesting
import Foundation
import Testing

/// The console in a real browser: Debian's headless Chromium, driven through chromium-driver by
/// Selenium from the project's venv (`Tests/peers/console_browser.py`), against the real
/// `courier-server`, with events sent by the real `courier track`.
@Suite(.timeLimit(.minutes(3)))
struct ConsoleBrowserTests {
    static let packageRoot = ProjectPaths.packageRoot
    static let adminToken = "browser-admin-token-0123456789"
    static let writeKey = "browser-write-key"

    static var python: String { ProjectPaths.python }

    @Test func aPersonSignsInWatchesEventsKillsCollectionAndRampsAFlagInChromium() async throws {
        let python = Self.python
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "no Python venv at \(python): run `make test` (or scripts/bootstrap) first")
        for program in ["/usr/bin/chromium", "/usr/bin/chromedriver"] {
            try #require(
                FileManager.default.isExecutableFile(atPath: program),
                "\(program) is missing: run scripts/bootstrap (apt packages chromium, chromium-driver)")
        }
        let server = try #require(builtExecutable(named: "courier-server"), "build courier-server first")
        let cli = try #require(builtExecutable(named: "courier"), "build courier first")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("courier-console-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        var environment = ProcessInfo.processInfo.environment
        environment["COURIER_ADMIN_TOKEN"] = Self.adminToken
        let process = try ChildProcess(
            server,
            [
                "--port", "0", "--data-dir", work.appendingPathComponent("data").path, "--write-key", Self.writeKey,
                "--write-key", Self.writeKey + "-empty",
            ],
            environment: environment, output: .pipe, errorOutput: .discard)
        defer {
            process.terminate()
            inBackground { process.wait() }
        }
        let baseURL = try #require(await Self.listeningAddress(process), "courier-server did not start")

        let script = Self.packageRoot.appendingPathComponent("Tests/peers/console_browser.py").path
        let arguments = [script, baseURL, Self.adminToken, Self.writeKey, cli, work.path]
        let (status, errorOutput) = await runOffPool { () -> (Int32, String) in
            do {
                let outcome = try ChildProcess.run(python, arguments)
                return (outcome.status, outcome.errorOutput)
            } catch { return (-1, "\(error)") }
        }
        #expect(status == 0, "the browser test failed:\n\(errorOutput)")
        #expect(errorOutput.contains("console browser test passed"))
    }

    /// Reads `courier-server listening on http://127.0.0.1:PORT` from the server's output.
    static func listeningAddress(_ process: ChildProcess) async -> String? {
        guard let output = process.output else { return nil }
        return await runOffPool {
            var text = ""
            while !text.contains("\n") {
                let chunk = output.availableData
                if chunk.isEmpty { return nil }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let range = text.range(of: "http://127.0.0.1:") else { return nil }
            return "http://127.0.0.1:" + String(text[range.upperBound...].prefix { $0.isNumber })
        }
    }
}
