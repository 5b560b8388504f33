/// A stable code that names one kind of failure of one module, such as `truncated_image`.
///
/// A module declares its codes as static members of a small struct rather than as a public enum, so
/// adding a code is not a breaking change; `description` (the name) comes from here:
///
/// ```swift
/// public struct ImagePipelineErrorCode: ErrorCode {
///     public let name: String
///     private init(_ name: String) { self.name = name }
///
///     /// The data was zero bytes long.
///     public static let emptyData = Self("empty_data")
/// }
/// ```
public protocol ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The code's stable name, as logs and error bodies show it.
    var name: String { get }
}

extension ErrorCode {
    /// The code's stable name.
    public var description: String { name }
}
