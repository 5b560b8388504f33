import CourierCore

/// The targeting step of the resolver, shared by the Swift client and the server's evaluate
/// route so both answer the same: kill switch, then the rules in order, then the flag's value.
public enum RuleEvaluator {
    /// The variant reported when no rule matched.
    public static let fallthroughVariant = "fallthrough"

    /// Evaluates `flag` for `context`.
    ///
    /// Disabled flags give no value and reason `DISABLED`; the first matching rule gives its
    /// value with `SPLIT` (a rollout included the id) or `TARGETING_MATCH`; otherwise the flag's
    /// value with `fallbackReason` (`STATIC` on the server; `CACHED` or `STALE` on a client),
    /// which is computed only then.
    @inline(__always)
    public static func evaluate(
        _ flag: FlagDefinition, context: EvaluationContext,
        fallbackReason: @autoclosure () -> EvaluationReason = .static
    ) -> Resolution {
        guard flag.enabled else { return Resolution(value: nil, reason: .disabled) }
        if let index = flag.compiled.firstMatch(context) {
            let rule = flag.rules[index]
            return Resolution(
                value: rule.value, variant: rule.variant, reason: rule.rollout == nil ? .targetingMatch : .split)
        }
        return Resolution(value: flag.value, variant: fallthroughVariant, reason: fallbackReason())
    }

    /// Evaluates every flag of `document`, by key.
    public static func evaluateAll(_ document: FlagDocument, context: EvaluationContext) -> [String: Resolution] {
        document.flags.mapValues { evaluate($0, context: context) }
    }
}
