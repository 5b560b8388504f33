/// Splits `--name value` options and `--flag`s from positional words.
struct ParsedArguments {
    private(set) var positional: [String] = []
    /// Every `--prop` value, in order.
    private(set) var props: [String] = []
    /// Every `--context` value, in order.
    private(set) var contexts: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []
    private var used: Set<String> = []

    static let valueOptions: Set<String> = [
        "--server", "--admin-token", "--write-key", "--after", "--interval", "--enabled", "--sample-rate",
        "--flush-at", "--flush-interval", "--allow-list", "--user-id", "--count", "--data-dir", "--progress",
        "--drain-seconds", "--env", "--file", "--definition", "--type", "--value", "--owner", "--expires",
        "--targeting-key", "--name", "--dir", "--token", "--identity",
    ]

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let word = rest.popFirst() {
            if word == "--prop", let value = rest.popFirst() {
                props.append(value)
            } else if word == "--context", let value = rest.popFirst() {
                contexts.append(value)
            } else if Self.valueOptions.contains(word), let value = rest.popFirst() {
                options[word] = value
            } else if word.hasPrefix("--") {
                flags.insert(word)
            } else {
                positional.append(word)
            }
        }
    }

    mutating func option(_ name: String) -> String? {
        used.insert(name)
        return options[name]
    }

    mutating func flag(_ name: String) -> Bool {
        used.insert(name)
        return flags.contains(name)
    }

    var leftoverOptions: [String] {
        (Array(options.keys) + Array(flags)).filter { !used.contains($0) }.sorted()
    }
}
