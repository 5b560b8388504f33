/// Why a flag definition (or a whole document) was refused: where, and what is wrong.
public struct FlagDefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is, as a path such as `flags[2].rules[0].conditions[1].operator`.
    public let path: String
    /// What is wrong, for a person.
    public let message: String

    /// Creates an error.
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
