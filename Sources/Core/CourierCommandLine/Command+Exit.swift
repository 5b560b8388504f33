import Foundation

extension Command {
    /// Reads `arguments` for a tool's entry point: returns the invocation to run, or handles what
    /// runs nothing and ends the process, printing the usage for help (exit 0) or `tool: error`
    /// on standard error for a refused command line (exit `UsageError.exitCode`).
    ///
    /// ```swift
    /// let invocation = table.parseOrExit(Array(CommandLine.arguments.dropFirst()), tool: "courier")
    /// ```
    public func parseOrExit(_ arguments: [String], tool: String) -> Invocation {
        switch parse(arguments) {
        case .run(let invocation):
            return invocation
        case .help(let usage):
            print(usage, terminator: "")
            exit(0)
        case .refused(let error):
            FileHandle.standardError.write(Data("\(tool): \(error)\n".utf8))
            exit(UsageError.exitCode)
        }
    }
}
