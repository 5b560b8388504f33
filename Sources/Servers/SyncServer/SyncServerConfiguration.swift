import CourierHTTP
import SyncWire

/// Limits, tokens and horizons of the sync routes.
public struct SyncServerConfiguration: Sendable {
    /// Bearer token → owner. Records belong to an owner; a client sees only its owner's records.
    /// Empty: every request is refused with 401.
    public var tokens: [String: String] = [:]
    /// Unknown bearer tokens per client network (an IPv4 address, an IPv6 `/64`): each spends one;
    /// with none left every request from that network, a known token included, is 429 with
    /// `Retry-After`. `nil`: no budget.
    public var failedAuthenticationRate: RateLimit? = RateLimit(perSecond: 1, burst: 10)
    /// The most operations one push may carry.
    public var maximumOperationsPerPush = 500
    /// The largest set operation, as encoded JSON; a larger one is rejected (quarantined by the
    /// client), not retried.
    public var maximumOperationBytes = 64 * 1024
    /// How long tombstones (and the version history that answers conflicts with an ancestor)
    /// are kept; a client whose cursor is older must refetch a snapshot.
    public var tombstoneHorizon: Duration = .seconds(30 * 86_400)
    /// How often the tombstone job (`SyncService.backgroundJobs`) collects tombstones past the
    /// horizon.
    public var tombstoneCollectionInterval: Duration = .seconds(3_600)
    /// The most changes one pull returns.
    public var maximumChangesPerPull = 1_000
    /// How long a list cursor stays valid; sync cursors expire only by the tombstone horizon.
    public var listCursorMaximumAge: Duration = .seconds(3_600)
    /// The longest a poke long-poll waits before answering "nothing new".
    public var maximumPokeWait: Duration = .seconds(30)
    /// An application rule run on each operation before it is applied: a reason refuses it for
    /// good (the client quarantines it), `nil` lets it through.
    public var validate: (@Sendable (SyncOperation) -> String?)?

    /// The defaults.
    public init() {}
}

extension SyncServerConfiguration {
    /// Parses `token=owner,token=owner` (as `COURIER_SYNC_TOKENS` holds it); malformed entries
    /// are skipped.
    public static func tokens(from text: String) -> [String: String] {
        var tokens: [String: String] = [:]
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { continue }
            tokens[String(parts[0])] = String(parts[1])
        }
        return tokens
    }
}
