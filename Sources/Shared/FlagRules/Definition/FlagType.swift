import CourierCore

/// The type of a flag's values: every value a definition serves must have it.
public enum FlagType: String, Sendable, CaseIterable {
    /// `true` or `false`.
    case bool
    /// Text.
    case string
    /// A whole number (64-bit).
    case int
    /// A number (a whole number is accepted too).
    case double
    /// Any JSON value (remote configuration objects).
    case json

    /// Whether `value` is of this type.
    public func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.bool, .bool), (.string, .string), (.int, .int), (.double, .double), (.double, .int), (.json, _):
            return true
        default:
            return false
        }
    }
}
