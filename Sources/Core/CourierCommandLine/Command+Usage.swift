extension Command {
    /// The usage of the command at `path` below this root (the root's own for an empty path):
    /// its synopsis, summary, arguments, options and commands, generated from the table.
    public func usage(path: [String]) -> String {
        var command = self
        for name in path {
            guard let next = command.subcommand(name) else { break }
            command = next
        }
        let prefix = ([name] + path).joined(separator: " ")
        var text = "USAGE: \(prefix)\(command.synopsis)\n\n\(command.summary)\n"
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n" + Self.table(command.arguments.map { ($0.name, $0.help) })
        }
        var options = command.options.map { option in
            let left = option.kind == .flag ? option.name : "\(option.name) \(option.valueName)"
            var help = option.help
            if option.isRequired { help += " (required)" }
            if option.kind == .repeated { help += " (repeatable)" }
            return (left, help)
        }
        options.append(("-h, --help", "show this help"))
        text += "\nOPTIONS:\n" + Self.table(options)
        if !command.subcommands.isEmpty {
            let leaves = command.allCommands.filter { $0.command.subcommands.isEmpty }
            text += "\nCOMMANDS:\n"
            text += Self.table(
                leaves.map { leaf in
                    var name = leaf.path.joined(separator: " ")
                    if let parent = command.parent(of: leaf.path), parent.defaultSubcommand == leaf.path.last {
                        name = (leaf.path.dropLast() + ["[\(leaf.path.last ?? "")]"]).joined(separator: " ")
                    }
                    return (name + leaf.command.synopsis(optionsShown: false), leaf.command.summary)
                })
            text += "\nSee `\(prefix) COMMAND --help` for a command's options.\n"
        }
        if let discussion = command.discussion { text += "\n" + discussion + "\n" }
        return text
    }

    /// The arguments and options after the command's name: ` FLAG [--env ENV]`.
    var synopsis: String { synopsis(optionsShown: true) }

    func synopsis(optionsShown: Bool) -> String {
        var words: [String] = []
        if !subcommands.isEmpty { words.append(defaultSubcommand == nil ? "COMMAND" : "[COMMAND]") }
        for argument in arguments {
            let name = argument.isVariadic ? "\(argument.name) …" : argument.name
            words.append(argument.isRequired ? name : "[\(name)]")
        }
        // Beyond three optional options the synopsis says [OPTIONS]; the list below names them.
        let spelled = optionsShown && options.filter { !$0.isRequired }.count <= 3
        for option in options where spelled || option.isRequired {
            var word = option.kind == .flag ? option.name : "\(option.name) \(option.valueName)"
            if option.kind == .repeated { word += " …" }
            words.append(option.isRequired ? word : "[\(word)]")
        }
        if optionsShown && !spelled { words.append("[OPTIONS]") }
        return words.map { " " + $0 }.joined()
    }

    private func parent(of path: [String]) -> Command? {
        var command = self
        for name in path.dropLast() {
            guard let next = command.subcommand(name) else { return nil }
            command = next
        }
        return command
    }

    /// Two columns, the second starting at column 34 (or on the next line after a long first one).
    private static func table(_ rows: [(String, String)]) -> String {
        let width = 32
        return rows.map { left, right in
            let cell = "  " + left
            if cell.count <= width - 2 {
                return cell + String(repeating: " ", count: width - cell.count) + right + "\n"
            }
            return cell + "\n" + String(repeating: " ", count: width) + right + "\n"
        }.joined()
    }
}
