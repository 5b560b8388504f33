/// Limits and the admin token of the flag routes.
public struct FlagServerConfiguration: Sendable {
    /// The bearer token the admin routes (edits, listing, audit) require; `nil` disables them.
    public var adminToken: String?
    /// The largest definition body accepted by the admin routes.
    public var maximumDefinitionBytes = 256 << 10
    /// The largest evaluation request body.
    public var maximumEvaluationBytes = 64 << 10
    /// Bodies at least this large are gzipped for clients that accept it.
    public var gzipThresholdBytes = 512
    /// How long an environment key that was read and not found is answered `404` from memory
    /// (at most 4,096 such keys are kept): apps still polling a deleted environment cost one
    /// store read per key per lifetime, not one per request. An environment created on this
    /// instance, or on another whose change reaches this one (the bus, or the 1 s version poll),
    /// is served at once regardless.
    public var unknownEnvironmentLifetime: Duration = .seconds(10)

    /// Creates the default configuration.
    public init() {}
}
