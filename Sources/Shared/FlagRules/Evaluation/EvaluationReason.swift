/// Why an evaluation gave its value, with OpenFeature's names. New reasons may be added.
public struct EvaluationReason: Sendable, Hashable, CustomStringConvertible {
    /// The name sent on the wire, such as `TARGETING_MATCH`.
    public let rawValue: String
    /// Creates a reason from its wire name.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// A debug override, or a definition served as is.
    public static let `static` = EvaluationReason("STATIC")
    /// No definition (first launch, offline, unknown flag): the app's baked default.
    public static let `default` = EvaluationReason("DEFAULT")
    /// A targeting rule without a rollout matched.
    public static let targetingMatch = EvaluationReason("TARGETING_MATCH")
    /// A rule's percentage rollout included the id.
    public static let split = EvaluationReason("SPLIT")
    /// The value comes from the last-known-good copy on disk, not from this session's fetch.
    public static let cached = EvaluationReason("CACHED")
    /// The kill switch is on: the app's default.
    public static let disabled = EvaluationReason("DISABLED")
    /// The definitions are older than the configured staleness limit.
    public static let stale = EvaluationReason("STALE")
    /// Something went wrong (see the error code): the app's default.
    public static let error = EvaluationReason("ERROR")

    /// The wire name.
    public var description: String { rawValue }
}

/// What went wrong, with OpenFeature's names. New codes may be added.
public struct EvaluationErrorCode: Sendable, Hashable, CustomStringConvertible {
    /// The name sent on the wire, such as `TYPE_MISMATCH`.
    public let rawValue: String
    /// Creates a code from its wire name.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The server knows no flag with this key.
    public static let flagNotFound = EvaluationErrorCode("FLAG_NOT_FOUND")
    /// The definition's type differs from the type the app declared.
    public static let typeMismatch = EvaluationErrorCode("TYPE_MISMATCH")
    /// The definitions could not be read.
    public static let parseError = EvaluationErrorCode("PARSE_ERROR")
    /// The provider has no definitions yet.
    public static let providerNotReady = EvaluationErrorCode("PROVIDER_NOT_READY")
    /// Anything else.
    public static let general = EvaluationErrorCode("GENERAL")

    /// The wire name.
    public var description: String { rawValue }
}
