import CourierCore
import FlagRules

/// OpenFeature's provider seam: whatever resolves flags behind the typed API. `FeatureFlags` is
/// Courier's own; an app may put another service's provider behind the same calls.
public protocol FlagProvider: Sendable {
    /// The provider's name, for logs.
    var name: String { get }
    /// Resolves one flag untyped; a `nil` value means "use the caller's default".
    /// - Parameters:
    ///   - key: the flag's key.
    ///   - type: the type the app declared.
    ///   - context: who it is evaluated for.
    func resolve(key: String, type: FlagType, context: EvaluationContext) -> Resolution
}

extension FlagProvider {
    /// Typed evaluation details for a declared flag, with its default applied.
    @inlinable
    public func details<Value>(_ flag: Flag<Value>, context: EvaluationContext) -> EvaluationDetails<Value> {
        EvaluationDetails(flag: flag, resolution: resolve(key: flag.key, type: Value.flagType, context: context))
    }

    /// OpenFeature's `resolveBooleanEvaluation`.
    public func resolveBooleanEvaluation(key: String, defaultValue: Bool, context: EvaluationContext)
        -> EvaluationDetails<Bool>
    { details(Flag(key, default: defaultValue), context: context) }

    /// OpenFeature's `resolveStringEvaluation`.
    public func resolveStringEvaluation(key: String, defaultValue: String, context: EvaluationContext)
        -> EvaluationDetails<String>
    { details(Flag(key, default: defaultValue), context: context) }

    /// OpenFeature's `resolveIntegerEvaluation`.
    public func resolveIntegerEvaluation(key: String, defaultValue: Int, context: EvaluationContext)
        -> EvaluationDetails<Int>
    { details(Flag(key, default: defaultValue), context: context) }

    /// OpenFeature's `resolveDoubleEvaluation`.
    public func resolveDoubleEvaluation(key: String, defaultValue: Double, context: EvaluationContext)
        -> EvaluationDetails<Double>
    { details(Flag(key, default: defaultValue), context: context) }

    /// OpenFeature's `resolveObjectEvaluation`.
    public func resolveObjectEvaluation(key: String, defaultValue: JSONValue, context: EvaluationContext)
        -> EvaluationDetails<JSONValue>
    { details(Flag(key, default: defaultValue), context: context) }
}
