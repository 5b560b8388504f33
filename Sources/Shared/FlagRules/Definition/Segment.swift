/// A named group of users shared by many flags (`beta-testers`, `employees`): every condition
/// must hold.
public struct Segment: Sendable {
    /// The segment's name, as rules refer to it.
    public let key: String
    /// The conditions, all of which must hold.
    public let conditions: [Condition]

    /// Whether the context belongs to the segment.
    @inline(__always)
    public func contains(_ context: EvaluationContext) -> Bool {
        for condition in conditions where !condition.matches(context) { return false }
        return true
    }
}
