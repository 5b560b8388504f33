import CourierHTTP

/// Limits and policies of the collector. The defaults are Segment's tracking-API limits.
public struct CollectorConfiguration: Sendable {
    /// Largest single event, as sent (Segment: 32 KB).
    public var maximumEventBytes = 32 * 1024
    /// Largest batch body after decompression (Segment: 500 KB).
    public var maximumBatchBytes = 500 * 1024
    /// Most events in one batch.
    public var maximumBatchEvents = 2_500
    /// How long a `messageId` is remembered for dedupe.
    public var dedupeWindow: Duration = .seconds(24 * 3600)
    /// How often remembered `messageId`s older than the window are deleted (by the pruning job,
    /// `Collector.backgroundJobs`).
    public var dedupePruneInterval: Duration = .seconds(3600)
    /// Events waiting for a commit beyond which new batches get 429.
    public var maximumPendingEvents = 100_000
    /// Payload bytes waiting for a commit beyond which new batches get 429: events of the largest
    /// size would otherwise hold `maximumPendingEvents` × `maximumEventBytes` (3 GiB) in memory
    /// while commits fall behind.
    public var maximumPendingBytes = 128 << 20
    /// Batches whose write key is in the body (so unknown until the body is parsed) parsed at
    /// once, all clients together; beyond it such a batch gets 429 with `Retry-After`. A key in
    /// the `Authorization` header is checked before parsing and is not counted.
    public var maximumBodyKeyParses = 8
    /// The `Retry-After` sent with 429, in seconds.
    public var retryAfterSeconds = 2
    /// How long project settings are cached before being read again from the store.
    public var settingsCacheTTL: Duration = .seconds(5)
    /// How long a request waits for its batch's commit before it is answered `503 commit_timeout`.
    public var commitTimeout: Duration = .seconds(10)
    /// Requests per second (and burst) allowed per write key; `nil` for no limit.
    public var rateLimitPerWriteKey: RateLimit? = RateLimit(perSecond: 1_000, burst: 2_000)
    /// Requests per second (and burst) allowed per client address; `nil` for no limit.
    public var rateLimitPerClient: RateLimit? = RateLimit(perSecond: 500, burst: 1_000)
    /// Stored payload bytes allowed per write key; `nil` for no quota.
    public var storageQuotaPerWriteKey: Int64?
    /// Stored payload bytes allowed for all projects together; `nil` for no quota.
    public var storageQuotaTotal: Int64?
    /// The shortest time between two reads of a live event stream (`GET /v1/events/stream`):
    /// commits in between are read together, so a stream costs at most a few reads a second.
    public var liveStreamInterval: Duration = .milliseconds(200)
    /// Live event streams open at once; more are answered `429 overloaded` with `Retry-After`.
    public var maximumLiveStreams = 16
    /// How long a quiet live event stream waits before it sends a keep-alive comment.
    public var liveStreamKeepAlive: Duration = .seconds(15)
    /// The bearer token of the admin API (`PUT …/settings`, `GET /v1/events`); `nil` disables it.
    public var adminToken: String?

    /// Segment's limits, a 24-hour dedupe window, no admin token.
    public init() {}
}
