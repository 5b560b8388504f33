/// An option together with where its value goes in a tool's options struct: the command table
/// and the reading of an invocation come from one list, so the two cannot drift apart.
///
/// ```swift
/// static var bindings: [OptionBinding<ServerOptions>] {
///     [
///         .value("--host", "ADDRESS", \.host, help: "address to listen on"),
///         .integer("--port", "N", \.port, in: 0...65535, help: "port; 0 picks a free one"),
///         .flag("--quiet", \.accessLog, setting: false, help: "no access log"),
///     ]
/// }
/// ```
public struct OptionBinding<Options> {
    /// The option as the command table declares it.
    public let option: Option
    private let read: (Invocation, inout Options) throws(UsageError) -> Void

    /// An option read by `read`, for values that need more than a conversion.
    /// - Parameters:
    ///   - option: the option as the table declares it.
    ///   - read: stores what the invocation gave for it.
    public init(_ option: Option, read: @escaping (Invocation, inout Options) throws(UsageError) -> Void) {
        self.option = option
        self.read = read
    }

    /// Stores what `invocation` gave for this option in `options`; leaves it as is when the option
    /// was not given.
    /// - Throws: `UsageError` for a value the option does not take.
    public func apply(_ invocation: Invocation, to options: inout Options) throws(UsageError) {
        try read(invocation, &options)
    }

    /// An option with one text value.
    public static func value(
        _ name: String, _ valueName: String, _ property: WritableKeyPath<Options, String>, help: String
    ) -> Self {
        Self(.value(name, valueName, help: help)) { invocation, options in
            if let value = invocation.value(name) { options[keyPath: property] = value }
        }
    }

    /// An option with one text value, `nil` when not given.
    public static func value(
        _ name: String, _ valueName: String, _ property: WritableKeyPath<Options, String?>, help: String
    ) -> Self {
        Self(.value(name, valueName, help: help)) { invocation, options in
            if let value = invocation.value(name) { options[keyPath: property] = value }
        }
    }

    /// An option whose value is a whole number within `range`.
    public static func integer(
        _ name: String, _ valueName: String, _ property: WritableKeyPath<Options, Int>, in range: ClosedRange<Int>,
        help: String
    ) -> Self {
        Self(.value(name, valueName, help: help)) { invocation, options throws(UsageError) in
            if let value = try invocation.integer(name, in: range) { options[keyPath: property] = value }
        }
    }

    /// An option whose value is a whole number within `range`, `nil` when not given.
    public static func integer(
        _ name: String, _ valueName: String, _ property: WritableKeyPath<Options, Int64?>, in range: ClosedRange<Int>,
        help: String
    ) -> Self {
        Self(.value(name, valueName, help: help)) { invocation, options throws(UsageError) in
            if let value = try invocation.integer(name, in: range) { options[keyPath: property] = Int64(value) }
        }
    }

    /// An option whose value is a finite number within `range`, `nil` when not given.
    public static func number(
        _ name: String, _ valueName: String, _ property: WritableKeyPath<Options, Double?>,
        in range: ClosedRange<Double>, help: String
    ) -> Self {
        Self(.value(name, valueName, help: help)) { invocation, options throws(UsageError) in
            if let value = try invocation.number(name, in: range) { options[keyPath: property] = value }
        }
    }

    /// A flag that sets `property` to `value` when given.
    public static func flag(
        _ name: String, _ property: WritableKeyPath<Options, Bool>, setting value: Bool = true, help: String
    ) -> Self {
        Self(.flag(name, help: help)) { invocation, options in
            if invocation.flag(name) { options[keyPath: property] = value }
        }
    }

    /// An option given any number of times, every value kept in order.
    public static func repeated(
        _ name: String, _ valueName: String, _ property: WritableKeyPath<Options, [String]>, help: String
    ) -> Self {
        Self(.repeated(name, valueName, help: help)) { invocation, options in
            options[keyPath: property] = invocation.values(name)
        }
    }
}
