import FlagRules

/// One typed evaluation, shaped like OpenFeature's evaluation details.
public struct EvaluationDetails<Value: FlagValue>: Sendable {
    /// The flag's key.
    public let flagKey: String
    /// The value to use: never missing (the default when nothing else decides).
    public let value: Value
    /// The variant's name, when a definition decided.
    public let variant: String?
    /// Why this value.
    public let reason: EvaluationReason
    /// What went wrong, for reason `ERROR`.
    public let errorCode: EvaluationErrorCode?
    /// A sentence about the error.
    public let errorMessage: String?

    /// Applies the declared default and type to an untyped resolution. Inlinable so that an app's
    /// call is specialized for its value type rather than looking up generic metadata each time.
    @inlinable
    init(flag: Flag<Value>, resolution: Resolution) {
        flagKey = flag.key
        variant = resolution.variant
        if let served = resolution.value {
            if let typed = Value(flagJSON: served) {
                value = typed
                reason = resolution.reason
                errorCode = resolution.errorCode
                errorMessage = resolution.errorMessage
            } else {
                value = flag.defaultValue
                reason = .error
                errorCode = .typeMismatch
                errorMessage = "the served value is not a \(Value.flagType.rawValue)"
            }
        } else {
            value = flag.defaultValue
            reason = resolution.reason
            errorCode = resolution.errorCode
            errorMessage = resolution.errorMessage
        }
    }
}
