/// How a sync client pushes, pulls and resolves conflicts.
public struct SyncConfiguration: Sendable {
    /// The policy of each record type; types not listed use `defaultPolicy`.
    public var policies: [String: ConflictPolicy] = [:]
    /// The policy of record types not in `policies`.
    public var defaultPolicy: ConflictPolicy = .serverWins
    /// The most operations per push.
    public var pushBatchSize = 200
    /// The most changes per pull.
    public var pullBatchSize = 500
    /// How long one poke long-poll waits on the server.
    public var pokeWait: Duration = .seconds(25)
    /// The shortest time between two wake-ups of an `observe` stream's consumer. The first
    /// commit after a quiet interval wakes it at once; the commits of a burst within the interval
    /// reach it together when the interval ends (their records are never lost, only coalesced).
    /// Waking a parked consumer costs the writer a cross-thread wake-up, so a burst of single
    /// writes pays one per interval instead of one per commit. Zero wakes it on every commit.
    public var observerWakeInterval: Duration = .milliseconds(2)

    /// The defaults: server-wins for every type.
    public init() {}

    /// The policy for `collection`.
    public func policy(for collection: String) -> ConflictPolicy { policies[collection] ?? defaultPolicy }
}

/// What started a sync cycle (for logs and metrics; every trigger runs the same short cycle).
public enum SyncTrigger: Sendable, Hashable {
    /// The app came to the foreground.
    case foreground
    /// The network came back.
    case networkRestored
    /// The app asked.
    case explicit
    /// The server said something changed.
    case poke
}

/// What one cycle did.
public struct SyncReport: Sendable, Hashable {
    /// Operations the server applied.
    public var applied = 0
    /// Operations resolved by a conflict policy.
    public var conflicts = 0
    /// Operations refused for good and quarantined.
    public var rejected = 0
    /// Records pulled.
    public var pulled = 0
    /// Whether the client resynced from a snapshot (its cursor was past the tombstone horizon).
    public var refetched = false
}
