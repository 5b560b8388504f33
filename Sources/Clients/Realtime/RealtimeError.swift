import CourierCore

/// The error of the `Realtime` module.
public typealias RealtimeError = CodedError<RealtimeErrorCode>

/// What kind of `Realtime` failure it is; new codes may be added.
public struct RealtimeErrorCode: ErrorCode {
    private enum Kind: String {
        case storage
        case invalidArgument = "invalid_argument"
        case notFound = "not_found"
    }
    private let kind: Kind

    /// The store could not be opened, read or written.
    public static let storage = Self(kind: .storage)
    /// The argument is not acceptable (an empty destination, a payload over the limit).
    public static let invalidArgument = Self(kind: .invalidArgument)
    /// No outbox item has that id, or it is not in a state that allows the change.
    public static let notFound = Self(kind: .notFound)

    /// The code's name, in snake_case like every error code in Courier.
    public var name: String { kind.rawValue }
}
