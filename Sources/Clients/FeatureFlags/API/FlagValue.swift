import CourierCore
import FlagRules

/// A type a flag can have: `Bool`, `String`, `Int`, `Double` or `JSONValue`.
public protocol FlagValue: Sendable {
    /// The definition type that serves this Swift type.
    static var flagType: FlagType { get }
    /// Reads a served value; `nil` when it is not of this type.
    init?(flagJSON: JSONValue)
    /// The value as JSON.
    var flagJSON: JSONValue { get }
}

extension Bool: FlagValue {
    /// `bool`.
    public static var flagType: FlagType { .bool }
    /// Reads `true` or `false`.
    public init?(flagJSON: JSONValue) {
        guard let value = flagJSON.boolValue else { return nil }
        self = value
    }
    /// The JSON boolean.
    public var flagJSON: JSONValue { .bool(self) }
}

extension String: FlagValue {
    /// `string`.
    public static var flagType: FlagType { .string }
    /// Reads a string.
    public init?(flagJSON: JSONValue) {
        guard let value = flagJSON.stringValue else { return nil }
        self = value
    }
    /// The JSON string.
    public var flagJSON: JSONValue { .string(self) }
}

extension Int: FlagValue {
    /// `int`.
    public static var flagType: FlagType { .int }
    /// Reads a whole number that fits.
    public init?(flagJSON: JSONValue) {
        guard case .int(let value) = flagJSON, let fitted = Int(exactly: value) else { return nil }
        self = fitted
    }
    /// The JSON number.
    public var flagJSON: JSONValue { .int(Int64(self)) }
}

extension Double: FlagValue {
    /// `double`.
    public static var flagType: FlagType { .double }
    /// Reads a number.
    public init?(flagJSON: JSONValue) {
        guard let value = flagJSON.doubleValue else { return nil }
        self = value
    }
    /// The JSON number.
    public var flagJSON: JSONValue { .double(self) }
}

extension JSONValue: FlagValue {
    /// `json`.
    public static var flagType: FlagType { .json }
    /// Any JSON.
    public init?(flagJSON: JSONValue) { self = flagJSON }
    /// Itself.
    public var flagJSON: JSONValue { self }
}
