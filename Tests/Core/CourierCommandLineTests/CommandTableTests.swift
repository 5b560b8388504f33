import CourierCommandLine
import Testing

/// The parser read against a small table shaped like `courier`'s.
struct CommandTableTests {
    static let server = Option.value("--server", "URL", help: "the server")
    static let table = Command(
        "tool", summary: "a tool",
        subcommands: [
            Command(
                "track", summary: "send events", arguments: [.required("NAME", help: "the event")],
                options: [
                    server, .value("--write-key", "KEY", help: "the write key"),
                    .repeated("--prop", "KEY=VALUE", help: "a property"), .flag("--follow", help: "keep going"),
                ]),
            Command(
                "flags", summary: "feature flags",
                subcommands: [
                    Command(
                        "kill", summary: "turn the kill switch on", arguments: [.required("FLAG", help: "the flag")],
                        options: [server, .value("--env", "ENV", help: "the environment")]),
                    Command("list", summary: "list the flags", options: [server]),
                ]),
            Command(
                "chat", summary: "the chat",
                subcommands: [
                    Command(
                        "register", summary: "a new account",
                        options: [
                            .value("--server", "URL", required: true, help: "the server"),
                            .value("--name", "NAME", required: true, help: "the device's name"),
                        ]),
                    Command(
                        "run", summary: "the interactive client",
                        options: [.value("--name", "NAME", required: true, help: "the device's name")]),
                ], defaultSubcommand: "run"),
            Command(
                "bench", summary: "benchmarks",
                arguments: [.variadic("BENCHMARK", help: "which", choices: ["collector", "json"])]),
        ])

    static func invocation(_ arguments: [String]) throws -> Invocation {
        guard case .run(let invocation) = table.parse(arguments) else {
            Issue.record("\(arguments) did not parse: \(table.parse(arguments))")
            throw UsageError("no invocation")
        }
        return invocation
    }

    static func refusal(_ arguments: [String]) -> UsageError? {
        if case .refused(let error) = table.parse(arguments) { return error }
        return nil
    }

    static func help(_ arguments: [String]) -> String? {
        if case .help(let usage) = table.parse(arguments) { return usage }
        return nil
    }

    @Test func optionsArgumentsAndRepeatedValuesAreReadBack() throws {
        let track = try Self.invocation([
            "--server", "http://s", "track", "Opened", "--prop", "a=1", "--prop=b=2", "--follow", "--write-key", "k",
        ])
        #expect(track.commandName == "track")
        #expect(track.argument("NAME") == "Opened")
        #expect(track.values("--prop") == ["a=1", "b=2"])
        #expect(track.value("--server") == "http://s")
        #expect(track.value("--write-key") == "k")
        #expect(track.flag("--follow"))
        let chat = try Self.invocation(["chat", "--name", "alice"])
        #expect(chat.commandName == "chat run", "the default subcommand")
        let words = try Self.invocation(["track", "--", "--not-an-option"])
        #expect(words.argument("NAME") == "--not-an-option")
    }

    @Test(arguments: [
        ["--help"], ["-h"], ["help"], [], ["track", "--help"], ["help", "track"],
        ["flags", "kill", "X", "--env", "production", "--help"],
        ["flags", "kill", "--help", "X"], ["flags", "kill", "X", "--env", "--help"], ["chat", "register", "-h"],
        ["flags", "kill", "X", "--writekey", "k", "--help"], ["flags", "-h"], ["flags", "kill", "X", "--", "--help"],
    ])
    func helpAtAnyDepthIsUsageAndNothingRuns(arguments: [String]) {
        guard arguments.last != "--help" || !arguments.contains("--") else {
            // After `--` the word is an argument: here one too many for `flags kill`.
            #expect(Self.refusal(arguments)?.message == "unexpected argument --help")
            return
        }
        let usage = Self.help(arguments)
        #expect(usage?.hasPrefix("USAGE: tool") == true, "\(arguments): \(String(describing: usage))")
    }

    @Test func theUsageIsTheDeepestCommandNamed() throws {
        let kill = try #require(Self.help(["flags", "kill", "X", "--env", "production", "--help"]))
        #expect(kill.hasPrefix("USAGE: tool flags kill FLAG [--server URL] [--env ENV]\n\nturn the kill switch on"))
        #expect(kill.contains("  --env ENV                     the environment"))
        #expect(kill.contains("-h, --help"))
        let track = try #require(Self.help(["help", "track"]))
        #expect(track.hasPrefix("USAGE: tool track NAME"))
        let root = try #require(Self.help(["--help"]))
        for line in [
            "  track NAME", "  flags kill FLAG", "  flags list", "  chat register --server URL --name NAME",
            "  chat [run] --name NAME", "  bench [BENCHMARK …]",
        ] {
            #expect(root.contains(line), "missing \(line) in\n\(root)")
        }
    }

    @Test(
        arguments: [
            (["track", "Opened", "--writekey", "k"], "unknown option --writekey", "--write-key"),
            (["trak", "Opened"], "unknown command trak", "track"),
            (["flags", "kil", "X"], "unknown flags command kil", "kill"),
            (["flags", "kill", "X", "--follow"], "unknown option --follow", nil),
            (["--follow", "flags", "kill", "X"], "flags kill takes no option --follow", nil),
            (["flags", "kill", "X", "--evn", "production"], "unknown option --evn", "--env"),
            (["chat", "dance", "--name", "x"], "unknown chat command dance", nil),
            (["bench", "colector"], "unknown BENCHMARK colector", "collector"),
        ] as [([String], String, String?)])
    func unknownNamesAreRefusedWithTheClosestKnownOne(arguments: [String], message: String, suggestion: String?) {
        let error = Self.refusal(arguments)
        #expect(error?.message == message)
        #expect(error?.suggestion == suggestion)
        #expect(UsageError.exitCode == 1)
    }

    @Test(arguments: [
        (["chat", "register", "--name", "x"], "chat register needs --server URL"),
        (["chat", "register"], "chat register needs --server URL and --name NAME"),
        (["flags", "kill"], "flags kill needs FLAG"),
        (["flags", "kill", "X", "Y"], "unexpected argument Y"),
        (["flags"], "tool flags needs a command: kill, list"),
        (["track", "Opened", "--write-key"], "--write-key needs a value (KEY)"),
        (["track", "Opened", "--follow=yes"], "--follow takes no value"),
    ])
    func missingAndExtraWordsAreRefused(arguments: [String], message: String) {
        #expect(Self.refusal(arguments)?.message == message)
    }

    @Test func anUnknownOptionIsRefusedBeforeAMissingArgument() {
        #expect(Self.refusal(["flags", "kill", "--writekey", "k"])?.message == "unknown option --writekey")
    }

    @Test func numbersAreCheckedWithTheirRange() throws {
        let invocation = try Self.invocation(["track", "E", "--write-key", "12"])
        #expect(try invocation.integer("--write-key", in: 1...100) == 12)
        #expect(throws: UsageError.self) { try invocation.integer("--write-key", in: 1...10) }
        #expect(try invocation.integer("--server") == nil)
    }
}
