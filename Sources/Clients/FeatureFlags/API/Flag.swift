/// A flag declared in code: its key, its type and its safe default, which is what first launch,
/// offline use, a killed flag and any error give.
///
/// ```swift
/// extension Flag where Value == Bool {
///     static let newCheckout = Flag("new-checkout", default: false)
/// }
/// let on = flags.value(.newCheckout)
/// ```
public struct Flag<Value: FlagValue>: Sendable {
    /// The key the server defines it under.
    public let key: String
    /// The value when nothing else decides: must be safe.
    public let defaultValue: Value

    /// Declares a flag.
    public init(_ key: String, default defaultValue: Value) {
        self.key = key
        self.defaultValue = defaultValue
    }
}
