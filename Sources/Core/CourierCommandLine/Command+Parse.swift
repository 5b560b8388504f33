/// The outcome of reading a command line against a command table.
public enum ParseResult: Sendable {
    /// A complete, valid command line: run it.
    case run(Invocation)
    /// Help was asked for (`--help`, `-h` or `help` at any depth, or the bare tool): print this
    /// usage on standard output and exit 0, running nothing.
    case help(String)
    /// The command line is refused: print the error on standard error and exit
    /// `UsageError.exitCode`, running nothing.
    case refused(UsageError)
}

extension Command {
    /// The words that ask for help wherever they appear (before `--`).
    public static let helpWords: Set<String> = ["--help", "-h"]

    /// Reads `arguments` (without the tool's own name) against this table, whose root is `self`.
    ///
    /// Help wins over everything: `--help` or `-h` anywhere before `--`, or the word `help` where a
    /// command is expected, gives the usage of the deepest command named. Otherwise the command
    /// line is refused for an unknown command or option (with the closest known name), a missing
    /// value, a missing required option or argument, or a word too many. Options may come before
    /// or after the subcommand's name; `--` ends the options.
    public func parse(_ arguments: [String]) -> ParseResult {
        var parser = CommandLineParser(root: self)
        return parser.parse(arguments)
    }
}

/// One reading of one command line.
struct CommandLineParser {
    let root: Command
    private var path: [Command] = []
    private var optionValues: [String: [String]] = [:]
    private var optionsGiven: [String] = []
    private var positionals: [String] = []
    private var helpRequested = false
    private var firstError: UsageError?

    init(root: Command) {
        self.root = root
        path = [root]
    }

    private var current: Command { path[path.count - 1] }
    private var names: [String] { path.dropFirst().map(\.name) }
    private var usageHint: String { ([root.name] + names + ["--help"]).joined(separator: " ") }
    /// The command as the user names it (`flags kill`, or the tool's name for the root).
    private var displayName: String { names.isEmpty ? root.name : names.joined(separator: " ") }

    mutating func parse(_ arguments: [String]) -> ParseResult {
        if arguments.isEmpty && !root.subcommands.isEmpty { return .help(root.usage(path: [])) }
        var rest = arguments[...]
        var optionsEnded = false
        while let word = rest.popFirst() {
            if optionsEnded {
                positional(word)
            } else if word == "--" {
                optionsEnded = true
            } else if Command.helpWords.contains(word) {
                helpRequested = true
            } else if word.hasPrefix("-") && word != "-" {
                option(word, &rest)
            } else {
                positional(word)
            }
        }
        if helpRequested { return .help(root.usage(path: names)) }
        if let firstError { return .refused(firstError) }
        return finish()
    }

    private mutating func refuse(_ message: String, suggestion: String? = nil) {
        if firstError == nil { firstError = UsageError(message, suggestion: suggestion, usage: usageHint) }
    }

    private mutating func positional(_ word: String) {
        guard !current.subcommands.isEmpty else {
            positionals.append(word)
            return
        }
        if let subcommand = current.subcommand(word) {
            path.append(subcommand)
        } else if word == "help" {
            helpRequested = true
        } else {
            let what = path.count == 1 ? "command" : "\(names.joined(separator: " ")) command"
            refuse(
                "unknown \(what) \(word)", suggestion: closest(to: word, among: current.subcommands.map(\.name)))
        }
    }

    private mutating func option(_ word: String, _ rest: inout ArraySlice<String>) {
        var name = word
        var attached: String?
        if let equals = word.firstIndex(of: "=") {
            name = String(word[..<equals])
            attached = String(word[word.index(after: equals)...])
        }
        // The subcommand may not be named yet: an option is known by the command named so far or
        // by one below it, and checked against the command that runs at the end.
        guard let declared = current.option(name) ?? Self.declaredBelow(current, name) else {
            refuse("unknown option \(name)", suggestion: closest(to: name, among: knownOptionNames(current)))
            return
        }
        optionsGiven.append(name)
        switch declared.kind {
        case .flag:
            if attached != nil { refuse("\(name) takes no value") }
            optionValues[name, default: []].append("")
        case .value, .repeated:
            if let attached {
                optionValues[name, default: []].append(attached)
            } else if let next = rest.first, !Command.helpWords.contains(next) {
                rest.removeFirst()
                optionValues[name, default: []].append(next)
            } else {
                refuse("\(name) needs a value (\(declared.valueName))")
            }
        }
    }

    private static func declaredBelow(_ command: Command, _ name: String) -> Option? {
        for subcommand in command.subcommands {
            if let found = subcommand.option(name) ?? declaredBelow(subcommand, name) { return found }
        }
        return nil
    }

    private func knownOptionNames(_ command: Command) -> [String] {
        command.allCommands.flatMap { $0.command.options.map(\.name) } + ["--help"]
    }

    private mutating func finish() -> ParseResult {
        while !current.subcommands.isEmpty {
            guard let name = current.defaultSubcommand, let subcommand = current.subcommand(name) else {
                let choices = current.subcommands.map(\.name)
                return .refused(
                    UsageError(
                        "\(([root.name] + names).joined(separator: " ")) needs a command: "
                            + choices.joined(separator: ", "), usage: usageHint))
            }
            path.append(subcommand)
        }
        let command = current
        for name in optionsGiven where command.option(name) == nil {
            return .refused(
                UsageError(
                    "\(displayName) takes no option \(name)",
                    suggestion: closest(to: name, among: command.options.map(\.name) + ["--help"]), usage: usageHint))
        }
        var argumentValues: [String: [String]] = [:]
        var words = positionals[...]
        for argument in command.arguments {
            if argument.isVariadic {
                argumentValues[argument.name] = Array(words)
                words = []
            } else if let word = words.popFirst() {
                argumentValues[argument.name] = [word]
            }
            for word in argumentValues[argument.name] ?? [] where !argument.choices.isEmpty {
                guard argument.choices.contains(word) else {
                    return .refused(
                        UsageError(
                            "unknown \(argument.name) \(word)", suggestion: closest(to: word, among: argument.choices),
                            usage: usageHint))
                }
            }
        }
        if let extra = words.first {
            return .refused(UsageError("unexpected argument \(extra)", usage: usageHint))
        }
        let missing =
            command.arguments.filter { $0.isRequired && argumentValues[$0.name] == nil }.map(\.name)
            + command.options.filter { $0.isRequired && optionValues[$0.name] == nil }.map {
                "\($0.name) \($0.valueName)"
            }
        if !missing.isEmpty {
            return .refused(UsageError("\(displayName) needs \(Self.list(missing))", usage: usageHint))
        }
        return .run(
            Invocation(
                path: names, command: command, toolName: root.name, optionValues: optionValues,
                argumentValues: argumentValues))
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
