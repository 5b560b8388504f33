import CourierCore

/// One test of one attribute: `country in [FR, DE]`, `appVersion semverGte 2.3.0`, …
public struct Condition: Sendable {
    /// What a condition compares.
    public enum Operator: String, Sendable, CaseIterable {
        /// The attribute equals the one value (strings, numbers and booleans compared as text).
        case equals
        /// The attribute is present and differs from the value, or is missing.
        case notEquals
        /// The attribute equals one of the values.
        case `in`
        /// The attribute equals none of the values, or is missing.
        case notIn
        /// Number comparisons (a numeric string counts as its number).
        case lt, lte, gt, gte
        /// Semantic version comparisons.
        case semverEq, semverLt, semverLte, semverGt, semverGte
        /// The attribute (text, at most `Condition.maximumRegexInputLength` characters) matches a
        /// regular expression of at most `Condition.maximumRegexLength` characters, in RE2's
        /// syntax (no backreferences or lookaround), anywhere in the text.
        case regex
    }

    /// The longest pattern a `regex` condition may have.
    public static let maximumRegexLength = 256
    /// The longest attribute a `regex` condition tests; longer never matches.
    public static let maximumRegexInputLength = 1024

    /// The attribute tested.
    public let attribute: String
    /// The comparison.
    public let op: Operator
    let keys: Set<String>
    let number: Double
    let version: Semver?
    let pattern: CompiledPattern?

    init(attribute: String, op: Operator, values: [JSONValue], path: String) throws(FlagDefinitionError) {
        self.attribute = attribute
        self.op = op
        var keys: Set<String> = []
        var number = 0.0
        var version: Semver?
        var pattern: CompiledPattern?
        switch op {
        case .equals, .notEquals, .in, .notIn:
            if (op == .equals || op == .notEquals) && values.count != 1 {
                throw FlagDefinitionError(path: path + ".values", "\(op.rawValue) takes exactly one value")
            }
            for (index, value) in values.enumerated() {
                guard let key = Self.key(value) else {
                    throw FlagDefinitionError(path: path + ".values[\(index)]", "must be a string, number or boolean")
                }
                keys.insert(key)
            }
        case .lt, .lte, .gt, .gte:
            guard values.count == 1, let n = values[0].doubleValue, n.isFinite else {
                throw FlagDefinitionError(path: path + ".values", "\(op.rawValue) takes exactly one finite number")
            }
            number = n
        case .semverEq, .semverLt, .semverLte, .semverGt, .semverGte:
            guard values.count == 1, let text = values[0].stringValue, let parsed = Semver(text) else {
                throw FlagDefinitionError(path: path + ".values", "\(op.rawValue) takes exactly one version like 2.3.0")
            }
            version = parsed
        case .regex:
            guard values.count == 1, let text = values[0].stringValue else {
                throw FlagDefinitionError(path: path + ".values", "regex takes exactly one pattern")
            }
            guard text.count <= Self.maximumRegexLength else {
                throw FlagDefinitionError(
                    path: path + ".values[0]", "a pattern may have at most \(Self.maximumRegexLength) characters")
            }
            do {
                pattern = try CompiledPattern(text)
            } catch {
                throw FlagDefinitionError(
                    path: path + ".values[0]",
                    "not a regular expression RE2 accepts (\(error.reason)); backreferences and lookaround are not supported"
                )
            }
        }
        self.keys = keys
        self.number = number
        self.version = version
        self.pattern = pattern
    }

    /// Whether the context passes this condition.
    @inline(__always)
    public func matches(_ context: EvaluationContext) -> Bool {
        guard let value = context.value(of: attribute) else { return op == .notEquals || op == .notIn }
        switch op {
        case .equals, .in:
            return Self.key(value).map(keys.contains) ?? false
        case .notEquals, .notIn:
            return !(Self.key(value).map(keys.contains) ?? false)
        case .lt, .lte, .gt, .gte:
            guard let n = Self.number(value) else { return false }
            return compare(number: n)
        case .semverEq, .semverLt, .semverLte, .semverGt, .semverGte:
            guard let text = value.stringValue, let v = Semver(text) else { return false }
            return compare(version: v)
        case .regex:
            return matchesPattern(value)
        }
    }

    /// An attribute as the number comparisons read it: a number, or a numeric string; finite.
    @inline(__always)
    static func number(_ value: JSONValue) -> Double? {
        guard let n = value.doubleValue ?? value.stringValue.flatMap(Double.init), n.isFinite else { return nil }
        return n
    }

    /// A number comparison with an attribute's number.
    @inline(__always)
    func compare(number n: Double) -> Bool {
        switch op {
        case .lt: return n < number
        case .lte: return n <= number
        case .gt: return n > number
        case .gte: return n >= number
        default: return false
        }
    }

    /// A version comparison with an attribute's version.
    @inline(__always)
    func compare(version v: Semver) -> Bool {
        guard let version else { return false }
        switch op {
        case .semverEq: return v == version
        case .semverLt: return v < version
        case .semverLte: return v <= version
        case .semverGt: return v > version
        case .semverGte: return v >= version
        default: return false
        }
    }

    /// Whether a `regex` condition's pattern matches the attribute (text within the length limit).
    func matchesPattern(_ value: JSONValue) -> Bool {
        guard let pattern, let text = value.stringValue, text.utf8.count <= Self.maximumRegexInputLength * 4,
            text.count <= Self.maximumRegexInputLength
        else { return false }
        return pattern.matches(text)
    }

    /// Strings, numbers and booleans as the text they are compared by.
    @inline(__always)
    static func key(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d):
            if d.isFinite, d == d.rounded(), abs(d) < 9e15 { return String(Int64(d)) }
            return d.isFinite ? String(d) : nil
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }
}
