import CourierCore

/// The outcome of evaluating one flag, untyped: OpenFeature's resolution details.
public struct Resolution: Sendable, Equatable {
    /// The value; `nil` when the caller's default applies (disabled, not found, error).
    public var value: JSONValue?
    /// The variant's name: the matching rule's variant, `fallthrough`, or `nil`.
    public var variant: String?
    /// Why.
    public var reason: EvaluationReason
    /// What went wrong, for reason `ERROR`.
    public var errorCode: EvaluationErrorCode?
    /// A sentence about the error.
    public var errorMessage: String?

    /// Creates a resolution.
    public init(
        value: JSONValue?, variant: String? = nil, reason: EvaluationReason, errorCode: EvaluationErrorCode? = nil,
        errorMessage: String? = nil
    ) {
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    /// `{"value", "variant", "reason", "errorCode", "errorMessage"}`, as the evaluate route answers.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["value": value ?? .null, "reason": .string(reason.rawValue)]
        if let variant { object["variant"] = .string(variant) }
        if let errorCode { object["errorCode"] = .string(errorCode.rawValue) }
        if let errorMessage { object["errorMessage"] = .string(errorMessage) }
        return .object(object)
    }

    /// Reads the JSON form; `nil` when `reason` is missing.
    public init?(json: JSONValue) {
        guard let reason = json["reason"]?.stringValue else { return nil }
        let value = json["value"]
        self.init(
            value: value?.isNull == false ? value : nil, variant: json["variant"]?.stringValue,
            reason: EvaluationReason(reason), errorCode: json["errorCode"]?.stringValue.map(EvaluationErrorCode.init),
            errorMessage: json["errorMessage"]?.stringValue)
    }
}
