import CourierCore

/// One targeting rule of a flag: conditions and segments that must all hold, an optional
/// percentage rollout, and the value served when it matches.
public struct TargetingRule: Sendable {
    /// The rule's name, unique in its flag.
    public let id: String
    /// Conditions that must all hold.
    public let conditions: [Condition]
    /// Segments the context must belong to, all of them.
    public let segments: [Segment]
    /// When set, only ids inside the rollout match.
    public let rollout: Rollout?
    /// The value served when the rule matches.
    public let value: JSONValue
    /// The variant name reported with the value (the rule's id unless given).
    public let variant: String

    /// Whether the rule matches `context`.
    @inline(__always)
    public func matches(_ context: EvaluationContext) -> Bool {
        for condition in conditions where !condition.matches(context) { return false }
        for segment in segments where !segment.contains(context) { return false }
        if let rollout {
            // Without a stickiness value there is no bucket: the rollout does not include it.
            guard let sticky = context.value(of: rollout.stickiness).flatMap(Condition.key) else { return false }
            return rollout.includes(sticky)
        }
        return true
    }
}
