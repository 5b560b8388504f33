/// What the command line asked for, checked against the table: the command to run and the values
/// of its arguments and options. Only a complete, valid invocation is ever returned by
/// `Command.parse(_:)`, so a command can act on it.
public struct Invocation: Sendable {
    /// The names that selected the command, below the root (`["flags", "kill"]`).
    public let path: [String]
    /// The command that runs.
    public let command: Command
    /// The tool's name (the root command's).
    public let toolName: String
    let optionValues: [String: [String]]
    let argumentValues: [String: [String]]

    /// The path as one string (`"flags kill"`), for dispatching on.
    public var commandName: String { path.joined(separator: " ") }

    /// The last value given to `option` (`--write-key`), or nil.
    public func value(_ option: String) -> String? {
        optionValues[option]?.last
    }

    /// Every value given to a repeatable `option`, in order.
    public func values(_ option: String) -> [String] {
        optionValues[option] ?? []
    }

    /// Whether the flag `option` was given.
    public func flag(_ option: String) -> Bool {
        optionValues[option] != nil
    }

    /// The positional argument `name`, or nil when it was not given.
    public func argument(_ name: String) -> String? {
        argumentValues[name]?.first
    }

    /// Every word of the variadic argument `name`.
    public func arguments(_ name: String) -> [String] {
        argumentValues[name] ?? []
    }

    /// The value of `option` as a whole number within `range`, or nil when it was not given.
    /// - Throws: `UsageError` when the value is not such a number.
    public func integer(_ option: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "\(option) takes a whole number\(Self.describe(range)), not \(text)", usage: usageHint)
        }
        return number
    }

    /// The value of `option` as a finite number, within `range` when one is given, or nil when
    /// the option was not given.
    /// - Throws: `UsageError` when the value is not such a number.
    public func number(_ option: String, in range: ClosedRange<Double>? = nil) throws(UsageError) -> Double? {
        guard let text = value(option) else { return nil }
        guard let number = Double(text), number.isFinite, range?.contains(number) ?? true else {
            let bounds = range.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""
            throw UsageError("\(option) takes a number\(bounds), not \(text)", usage: usageHint)
        }
        return number
    }

    /// A refusal of this invocation's values, pointing at its usage.
    public func refusal(_ message: String) -> UsageError {
        UsageError(message, usage: usageHint)
    }

    var usageHint: String { ([toolName] + path + ["--help"]).joined(separator: " ") }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (Int.min, Int.max): ""
        case (let low, Int.max): " from \(low)"
        default: " from \(range.lowerBound) to \(range.upperBound)"
        }
    }
}

/// A command line the table refuses: an unknown command or option, a missing value or a missing
/// required argument. Nothing has run when it is reported.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// The exit status a tool returns for a refused command line (1, as for any failure).
    public static let exitCode: Int32 = 1

    /// What is wrong, in one line.
    public let message: String
    /// The closest known word to a misspelt one (`--write-key` for `--writekey`), if any is close.
    public let suggestion: String?
    /// The command that prints the relevant usage (`courier flags kill --help`).
    public let usage: String?

    /// A refusal with an optional suggestion and usage hint.
    public init(_ message: String, suggestion: String? = nil, usage: String? = nil) {
        self.message = message
        self.suggestion = suggestion
        self.usage = usage
    }

    /// The message, then "did you mean" and where to read the usage, one per line.
    public var description: String {
        var lines = [message]
        if let suggestion { lines.append("did you mean \(suggestion)?") }
        if let usage { lines.append("see `\(usage)`") }
        return lines.joined(separator: "\n")
    }
}
