/// One command of a command-line tool, declared as data: its name, what it does, its positional
/// arguments, its options and its subcommands. A tool's commands form one table (a tree whose
/// root is the tool itself), which `parse(_:)` reads arguments against before anything runs.
///
/// ```swift
/// let tool = Command(
///     "courier", summary: "talks to a running courier-server",
///     subcommands: [
///         Command(
///             "track", summary: "send an event through the Analytics SDK",
///             arguments: [.required("NAME", help: "the event's name")],
///             options: [.value("--write-key", "KEY", help: "the source's write key")])
///     ])
/// switch tool.parse(["track", "Signed Up", "--write-key", "k"]) {
/// case .run(let invocation): print(invocation.argument("NAME") ?? "")
/// case .help(let usage): print(usage)
/// case .refused(let error): print(error)
/// }
/// ```
public struct Command: Sendable {
    /// The word that selects the command (the tool's own name for the root).
    public var name: String
    /// One line saying what the command does.
    public var summary: String
    /// More text for the command's usage, printed after its options.
    public var discussion: String?
    /// The positional arguments, in order: required ones first, at most one variadic, last.
    public var arguments: [Argument]
    /// The options the command accepts (`--help` and `-h` are always accepted).
    public var options: [Option]
    /// The commands one level below; a command with subcommands takes no positional arguments.
    public var subcommands: [Command]
    /// The subcommand that runs when none is named (`chat` runs `chat run`).
    public var defaultSubcommand: String?

    /// Declares a command.
    /// - Parameters:
    ///   - name: the word that selects it.
    ///   - summary: one line for the parent's command list and the command's own usage.
    ///   - discussion: more text for the command's usage.
    ///   - arguments: its positional arguments, in order.
    ///   - options: its options.
    ///   - subcommands: the commands below it.
    ///   - defaultSubcommand: the subcommand that runs when none is named.
    public init(
        _ name: String, summary: String, discussion: String? = nil, arguments: [Argument] = [],
        options: [Option] = [], subcommands: [Command] = [], defaultSubcommand: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
    }

    /// The subcommand named `name`, if there is one.
    public func subcommand(_ name: String) -> Command? {
        subcommands.first { $0.name == name }
    }

    /// The option named `name` (`--write-key`), if the command declares it.
    public func option(_ name: String) -> Option? {
        options.first { $0.name == name }
    }

    /// Every command of the table with the path of names that selects it, the root first
    /// (with an empty path): for documentation and for tests that check every command.
    public var allCommands: [(path: [String], command: Command)] {
        var found: [(path: [String], command: Command)] = [([], self)]
        for subcommand in subcommands {
            found += subcommand.allCommands.map { ([subcommand.name] + $0.path, $0.command) }
        }
        return found
    }
}

/// An option of a command: a flag (`--follow`), an option with one value (`--count N`) or a
/// repeatable one (`--prop KEY=VALUE`, given as often as needed). Values are given as the next
/// word or after `=` (`--count=3`).
public struct Option: Sendable, Equatable {
    /// Whether the option takes a value, and how many times it may be given.
    public enum Kind: Sendable, Equatable {
        /// No value: present or not.
        case flag
        /// One value; when given twice, the last one counts.
        case value
        /// One value each time; every value is kept, in order.
        case repeated
    }

    /// The option's name with its dashes (`--write-key`).
    public var name: String
    /// What it takes.
    public var kind: Kind
    /// The value's placeholder in usage (`KEY`); empty for a flag.
    public var valueName: String
    /// Whether the command refuses to run without it.
    public var isRequired: Bool
    /// One line saying what it does.
    public var help: String

    /// A flag: present or not.
    public static func flag(_ name: String, help: String) -> Option {
        Option(name: name, kind: .flag, valueName: "", isRequired: false, help: help)
    }

    /// An option with one value.
    /// - Parameters:
    ///   - name: its name with its dashes.
    ///   - valueName: the value's placeholder in usage.
    ///   - required: whether the command refuses to run without it.
    ///   - help: one line saying what it does.
    public static func value(_ name: String, _ valueName: String, required: Bool = false, help: String) -> Option {
        Option(name: name, kind: .value, valueName: valueName, isRequired: required, help: help)
    }

    /// An option that may be given several times, each time with a value.
    public static func repeated(_ name: String, _ valueName: String, help: String) -> Option {
        Option(name: name, kind: .repeated, valueName: valueName, isRequired: false, help: help)
    }
}

/// A positional argument of a command.
public struct Argument: Sendable, Equatable {
    /// Its placeholder in usage and the name it is read back by (`WRITE_KEY`).
    public var name: String
    /// One line saying what it is.
    public var help: String
    /// Whether the command refuses to run without it.
    public var isRequired: Bool
    /// Whether it takes every remaining word (only the last argument may).
    public var isVariadic: Bool
    /// The words it accepts; empty accepts any word.
    public var choices: [String]

    /// An argument the command needs.
    public static func required(_ name: String, help: String, choices: [String] = []) -> Argument {
        Argument(name: name, help: help, isRequired: true, isVariadic: false, choices: choices)
    }

    /// An argument the command can do without.
    public static func optional(_ name: String, help: String, choices: [String] = []) -> Argument {
        Argument(name: name, help: help, isRequired: false, isVariadic: false, choices: choices)
    }

    /// Every remaining word (none or more).
    public static func variadic(_ name: String, help: String, choices: [String] = []) -> Argument {
        Argument(name: name, help: help, isRequired: false, isVariadic: true, choices: choices)
    }
}
