/// The error of a module whose failures need a code to branch on, a sentence for people and the
/// cause, and nothing more: the module names it with a typealias over its own codes.
///
/// ```swift
/// /// The error of the `Sync` module.
/// public typealias SyncError = CodedError<SyncErrorCode>
///
/// throw SyncError(.transport, "the server answered 503")
/// ```
///
/// Two errors are equal when their codes and messages are; the cause does not take part, so tests
/// can expect a thrown error by value.
public struct CodedError<CodeType: ErrorCode>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The module's set of codes.
    public typealias Code = CodeType

    /// What kind of failure it is.
    public let code: Code
    /// What went wrong, for people (never secrets or message bodies).
    public let message: String
    /// The error underneath, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the stable code.
    ///   - message: a sentence for logs.
    ///   - underlying: the cause, if any.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// Whether the codes and the messages are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    /// Hashes the code and the message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}
