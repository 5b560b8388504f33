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

    /// Creates the default configuration.
    public init() {}
}
