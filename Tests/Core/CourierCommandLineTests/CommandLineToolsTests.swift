import CourierTesting
import Foundation
import Testing

/// `courier`, `courier-server` and `courier-bench` run as a user runs them: `--help` at any depth
/// prints usage and exits 0 having sent nothing and made nothing; a misspelt name is refused with
/// the closest known one before anything runs.
@Suite(.timeLimit(.minutes(3)))
struct CommandLineToolsTests {
    /// A listener that counts every connection made to it (and closes it at once).
    let listener: FaultProxy
    /// An empty working directory for the tool, so that anything it writes shows.
    let directory: String

    init() throws {
        listener = try FaultProxy(targetPort: 1)
        listener.refuse()
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    var server: String { "http://127.0.0.1:\(listener.port)" }

    func run(_ tool: String, _ arguments: [String]) async throws -> ChildProcess.Outcome {
        let executable = try #require(builtExecutable(named: tool), "build \(tool) first (swift build)")
        var environment = ProcessInfo.processInfo.environment
        environment["COURIER_SERVER"] = server
        environment["COURIER_ADMIN_TOKEN"] = "an-admin-token-for-the-test"
        let (directory, variables) = (directory, environment)
        return try await offPool {
            try ChildProcess.run(executable, arguments, environment: variables, directory: directory)
        }
    }

    /// Nothing connected to the listener and nothing was written in the working directory.
    func expectNothingDone(_ what: String) throws {
        #expect(listener.acceptedCount == 0, "\(what) connected to the server")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "\(what) wrote files")
    }

    /// Every command path of `courier`, read from the command list of its own usage
    /// (`flags kill FLAG …` gives `flags` and `flags kill`; `chat [run]` gives `chat` and `chat run`).
    func courierCommandPaths() async throws -> [[String]] {
        let root = try await run("courier", ["--help"])
        let lines = root.output.components(separatedBy: "COMMANDS:\n").last?.split(separator: "\n") ?? []
        var paths: [[String]] = []
        // A command line is "  NAMES ARGUMENTS  summary"; a summary too long for its row is on
        // the next line, indented further.
        for line in lines where line.hasPrefix("  ") && !line.hasPrefix("   ") {
            var path: [String] = []
            let cell = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            for word in cell.split(separator: " ") {
                let name = word.hasPrefix("[") && word.hasSuffix("]") ? word.dropFirst().dropLast() : word
                guard name.first?.isLowercase == true else { break }
                path.append(String(name))
                if !paths.contains(path) { paths.append(path) }
            }
        }
        return paths
    }

    /// Arguments that would act if the command ran: a positional argument, the server, a name.
    static func acting(_ path: [String]) -> [String] {
        switch path {
        case ["track"]: ["track", "Signed Up", "--prop", "plan=pro"]
        case ["settings", "set"]: ["settings", "set", "dev-write-key", "--enabled", "false"]
        case ["flags", "kill"]: ["flags", "kill", "new-checkout", "--env", "production"]
        case ["chat", "register"]: ["chat", "register", "--name", "alice"]
        case ["chat", "link"]: ["chat", "link", "--name", "tablet"]
        case ["chat", "provision"]: ["chat", "provision", "courier-link://?uuid=a&pub_key=b", "--name", "alice"]
        case ["chat", "run"], ["chat"]: path + ["--name", "alice"]
        case ["events", "tail"]: ["events", "tail", "--write-key", "dev-write-key", "--follow"]
        default: path.count == 2 && ["settings", "sources", "flags"].contains(path[0]) ? path + ["KEY"] : path
        }
    }

    @Test func everyCourierCommandsHelpExitsZeroAndSendsNothing() async throws {
        let paths = try await courierCommandPaths()
        #expect(paths.count >= 25, "\(paths)")
        for path in [
            ["track"], ["flags", "kill"], ["chat", "register"], ["demo", "messenger"], ["settings", "set"],
        ] {
            #expect(paths.contains(path), "the usage lists \(path)")
        }
        for path in paths {
            for help in ["--help", "-h"] {
                let arguments = Self.acting(path) + ["--server", server, help]
                let outcome = try await run("courier", arguments)
                #expect(outcome.status == 0, "\(arguments): \(outcome.errorOutput)")
                #expect(outcome.output.hasPrefix("USAGE: courier \(path.joined(separator: " "))"), "\(outcome.output)")
                #expect(outcome.errorOutput.isEmpty, "\(arguments): \(outcome.errorOutput)")
            }
        }
        try expectNothingDone("a --help")
    }

    @Test func killingAFlagWithHelpKillsNothing() async throws {
        let outcome = try await run(
            "courier", ["flags", "kill", "X", "--env", "production", "--server", server, "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.output.hasPrefix("USAGE: courier flags kill FLAG"), "\(outcome.output)")
        #expect(!outcome.output.contains("unknown option"))
        try expectNothingDone("flags kill --help")
    }

    @Test(arguments: [["--help"], ["-h"], ["help"], []])
    func courierAloneOrWithHelpPrintsItsUsage(arguments: [String]) async throws {
        let outcome = try await run("courier", arguments)
        #expect(outcome.status == 0)
        #expect(outcome.output.hasPrefix("USAGE: courier COMMAND"), "\(outcome.output)")
        #expect(outcome.output.contains("  track NAME"))
    }

    @Test func trackHelpPrintsTracksUsage() async throws {
        for arguments in [["track", "--help"], ["help", "track"]] {
            let outcome = try await run("courier", arguments)
            #expect(outcome.status == 0)
            #expect(outcome.output.hasPrefix("USAGE: courier track NAME"), "\(outcome.output)")
            #expect(outcome.output.contains("--write-key KEY"))
        }
        try expectNothingDone("track --help")
    }

    @Test(arguments: [
        (["track", "Opened", "--writekey", "k"], "unknown option --writekey", "did you mean --write-key?"),
        (["trak", "Opened"], "unknown command trak", "did you mean track?"),
        (["flags", "kil", "X"], "unknown flags command kil", "did you mean kill?"),
        (["settings", "set", "k", "--sample-rat", "5"], "unknown option --sample-rat", "did you mean --sample-rate?"),
        (["demo", "messenger", "--sever", "http://x"], "unknown option --sever", "did you mean --server?"),
    ])
    func aMisspeltNameIsRefusedWithTheClosestOneBeforeAnyRequest(
        arguments: [String], message: String, suggestion: String
    ) async throws {
        let outcome = try await run("courier", arguments + ["--server", server])
        #expect(outcome.status == 1)
        #expect(outcome.errorOutput.contains("courier: \(message)"), "\(outcome.errorOutput)")
        #expect(outcome.errorOutput.contains(suggestion), "\(outcome.errorOutput)")
        try expectNothingDone("\(arguments)")
    }

    @Test func requiredArgumentsAreCheckedBeforeAnything() async throws {
        let outcome = try await run("courier", ["chat", "provision", "--name", "phone"])
        #expect(outcome.status == 1)
        #expect(outcome.errorOutput.contains("chat provision needs CODE"), "\(outcome.errorOutput)")
        let link = try await run("courier", ["chat", "link", "--name", "tablet"])
        #expect(link.status == 1)
        #expect(link.errorOutput.contains("chat link needs --server URL"), "\(link.errorOutput)")
        let settings = try await run("courier", ["settings", "get"])
        #expect(settings.status == 1)
        #expect(settings.errorOutput.contains("settings get needs WRITE_KEY"), "\(settings.errorOutput)")
        try expectNothingDone("a command without its arguments")
    }

    @Test func anAdminCommandNamesAServerThatIsDown() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let url = closed.url
        let outcome = try await run("courier", ["sources", "list", "--server", url])
        #expect(outcome.status == 1)
        #expect(
            outcome.errorOutput.hasPrefix("courier: connection refused to \(url) (is courier-server running there?"),
            "\(outcome.errorOutput)")
    }

    @Test func theServersHelpExitsZeroAndStartsNothing() async throws {
        let outcome = try await run("courier-server", ["--port", "0", "--data-dir", "data", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.output.hasPrefix("USAGE: courier-server"), "\(outcome.output)")
        #expect(outcome.output.contains("--threads N"))
        #expect(!outcome.output.contains("--engine"), "civetweb is retired")
        try expectNothingDone("courier-server --help")
    }

    @Test(arguments: [
        (["--engine", "lws"], "unknown option --engine"),
        (["--prot", "0"], "did you mean --port?"),
        (["--port", "70000"], "--port takes a whole number from 0 to 65535, not 70000"),
        (["--threads", "0"], "--threads takes a whole number from 1 to 1024"),
        (["--tls-cert", "c.pem"], "--tls-cert and --tls-key go together"),
        (["extra"], "unexpected argument extra"),
    ])
    func theServerRefusesABadCommandLineBeforeItStarts(arguments: [String], message: String) async throws {
        let outcome = try await run("courier-server", ["--data-dir", "data"] + arguments)
        #expect(outcome.status == 1)
        #expect(outcome.errorOutput.contains(message), "\(outcome.errorOutput)")
        try expectNothingDone("courier-server \(arguments)")
    }

    @Test func theBenchmarksHelpExitsZeroAndAMisspeltBenchmarkIsRefused() async throws {
        let help = try await run("courier-bench", ["collector", "--runs", "1", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("USAGE: courier-bench [BENCHMARK …]"), "\(help.output)")
        #expect(help.output.contains("messenger-store"))
        let misspelt = try await run("courier-bench", ["colector", "--runs", "1"])
        #expect(misspelt.status == 1)
        #expect(misspelt.errorOutput.contains("unknown BENCHMARK colector"), "\(misspelt.errorOutput)")
        #expect(misspelt.errorOutput.contains("did you mean collector?"))
        let badRuns = try await run("courier-bench", ["json", "--runs", "many"])
        #expect(badRuns.status == 1)
        #expect(badRuns.errorOutput.contains("--runs takes a whole number"), "\(badRuns.errorOutput)")
        try expectNothingDone("courier-bench")
    }
}
