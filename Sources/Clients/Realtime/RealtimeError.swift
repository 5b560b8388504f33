/// The error of the `Realtime` module.
public struct RealtimeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is; new codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        /// The store could not be opened, read or written.
        public static let storage = Code(name: "storage")
        /// The argument is not acceptable (an empty destination, a payload over the limit).
        public static let invalidArgument = Code(name: "invalid_argument")
        /// No outbox item has that id, or it is not in a state that allows the change.
        public static let notFound = Code(name: "not_found")
        /// The code's name, in snake_case like every error code in Courier.
        public var description: String { name }
    }

    /// What kind of failure it is.
    public let code: Code
    /// What went wrong, for people.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
