/// Why a JSON text could not be read.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset where reading stopped.
    public let offset: Int
    /// What was wrong there.
    public let reason: String

    /// `reason at byte N`.
    public var description: String { "\(reason) at byte \(offset)" }
}
