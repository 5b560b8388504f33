import CourierCore
import CourierHTTP
import CourierPostgres
import Synchronization

/// The analytics collector: Segment's tracking API (`POST /v1/batch` and the single-event
/// endpoints), project settings for SDKs, and a read API for events.
///
/// Mount it on an `HTTPServer`'s router; call `shutdown()` after the server has stopped so the
/// last commit finishes.
public final class Collector: Sendable {
    /// The limits and policies in force.
    public let configuration: CollectorConfiguration
    let store: any EventStore
    let clock: any Clock
    let committer: GroupCommitter
    let settingsCache: SettingsCache
    let counters = CollectorCounters()
    let clientLimiter: RateLimiter?
    /// Parses of batches whose write key is in the body, all clients together.
    let bodyKeyParses: SlotGate
    let writeKeyLimiter: RateLimiter?
    let quotas: QuotaLedger
    let volume = VolumeLedger()
    let rejections = RejectionLog()
    /// Where `volume` and `rejections` go when the store is PostgreSQL, so every instance reports
    /// the same; `nil` keeps them in this process.
    let sharedObservations: SharedObservations?
    let settingsHistory = SettingsHistory()
    let commits = CommitSignal()
    /// Tells the other instances which project committed, so their live streams read it.
    let commitWakeUps: BusWakeUps
    let liveStreams = Atomic<Int>(0)

    /// Creates a collector.
    /// - Parameters:
    ///   - configuration: limits, dedupe window, admin token.
    ///   - store: where projects and events live.
    ///   - clock: the source of `receivedAt` and of the dedupe window's time.
    ///   - bus: shared with the other instances, whose live event streams wake when a batch
    ///     commits here; the default serves one process.
    public init(
        configuration: CollectorConfiguration = .init(), store: any EventStore, clock: any Clock = SystemClock(),
        bus: any MessageBus = LocalMessageBus()
    ) {
        self.configuration = configuration
        self.store = store
        self.clock = clock
        let commits = commits
        commitWakeUps = BusWakeUps(bus: bus, prefix: "commits") { _ in commits.notify() }
        sharedObservations = (store as? PostgresEventStore).map { SharedObservations(pool: $0.pool) }
        committer = GroupCommitter(store: store, clock: clock, configuration: configuration)
        settingsCache = SettingsCache(store: store, clock: clock, ttl: configuration.settingsCacheTTL)
        clientLimiter = configuration.rateLimitPerClient.map { RateLimiter($0, clock: clock) }
        bodyKeyParses = SlotGate(limit: configuration.maximumBodyKeyParses)
        writeKeyLimiter = configuration.rateLimitPerWriteKey.map { RateLimiter($0, clock: clock) }
        let hasQuota = configuration.storageQuotaPerWriteKey != nil || configuration.storageQuotaTotal != nil
        quotas = QuotaLedger(
            usage: hasQuota ? ((try? store.usage()) ?? [:]) : [:],
            perKeyQuota: configuration.storageQuotaPerWriteKey,
            totalQuota: configuration.storageQuotaTotal)
    }

    /// Registers write keys (projects with default settings unless they exist).
    /// - Throws: `HTTPError` when the store fails.
    public func register(writeKeys: [String]) throws(HTTPError) {
        for key in writeKeys {
            guard WriteKey.isWellFormed(key) else {
                throw HTTPError(
                    .invalidRequest,
                    "a write key must be 1–\(WriteKey.maximumBytes) bytes without control characters")
            }
            do {
                try store.registerProject(writeKey: key)
            } catch {
                throw HTTPError(error)
            }
            settingsCache.invalidate(writeKey: key)
        }
    }

    /// Adds the collector's routes to `router`, in one group whose error bodies also carry `code`
    /// and `message` at the top level (Segment's clients read them there); the admin routes form
    /// a nested group behind `AdminAuthMiddleware`.
    public func mount(on router: inout Router) {
        var ingestRoutes: [(String, MessageType?)] = [("batch", nil), ("b", nil), ("import", nil)]
        ingestRoutes += MessageType.allCases.map { ($0.rawValue, $0) }
        // analytics.js's short paths.
        ingestRoutes += [("t", .track), ("i", .identify), ("p", .page), ("s", .screen), ("g", .group), ("a", .alias)]
        router.group("/v1", middleware: [TopLevelErrorFieldsMiddleware()]) { collector in
            for (path, type) in ingestRoutes {
                // Ingest answers any origin, as Segment's does: a write key is public by design.
                // The admin routes below take a bearer token and admit no browser origin.
                collector.add("POST", "/\(path)", crossOrigin: .anyOrigin) { [self] request, _ in
                    try await ingest(request, singleType: type)
                }
            }
            // Cached settings are answered on the engine's loop; a miss reads the store as a task.
            collector.add(
                "GET", "/projects/{writeKey}/settings", crossOrigin: .anyOrigin,
                fromMemory: { [self] in try cachedSettings($0) }
            ) { [self] in try getSettings($0) }
            collector.group(middleware: [AdminAuthMiddleware(token: configuration.adminToken)]) { admin in
                admin.add("PUT", "/projects/{writeKey}/settings") { [self] in try putSettings($0) }
                admin.add("GET", "/events") { [self] in try listEvents($0) }
                mountObservation(on: &admin)
            }
        }
    }

    /// Collector counters in Prometheus text format, for `/metrics`.
    public func metricsText() -> String {
        counters.prometheusText(pendingEvents: committer.pendingEvents)
            + """
            # HELP courier_collector_live_streams Live event streams open (console debuggers).
            # TYPE courier_collector_live_streams gauge
            courier_collector_live_streams \(liveStreamCount)

            """
    }

    /// The work to run beside the server (`HTTPServer(…, jobs:)`): the subscription to the other
    /// instances' commits, forgetting remembered `messageId`s older than the dedupe window every
    /// `configuration.dedupePruneInterval` of the collector's clock, and, on PostgreSQL,
    /// `flushObservations()` every second.
    public var backgroundJobs: [BackgroundJob] {
        var jobs: [BackgroundJob] = [
            commitWakeUps.job(name: "collector.commits", clock: clock),
            .every(
                configuration.dedupePruneInterval, on: clock, name: "collector.dedupe-pruning",
                blocking: { [self] in _ = try? pruneDedupeIndex() }),
        ]
        if sharedObservations != nil {
            jobs.append(
                .every(
                    .seconds(1), on: clock, name: "collector.observations",
                    blocking: { [self] in
                        try? flushObservations()
                    }))
        }
        return jobs
    }

    /// Moves this instance's volume and refusal counts to PostgreSQL, where every instance reads
    /// them; nothing to do on SQLite, where they stay in this process.
    /// - Throws: `EventStoreError` when the store fails (the counts wait for the next flush).
    public func flushObservations() throws(EventStoreError) {
        guard let sharedObservations else { return }
        try storing {
            try sharedObservations.flush(volume: volume, rejections: rejections, atMilliseconds: clock.nowMilliseconds)
        }
    }

    /// Hears the other instances' commits from now on (the `collector.commits` job does it too);
    /// a test awaits it before ingesting on another instance.
    /// - Throws: `BusError` when the bus refuses the subscription.
    public func subscribeToCommits() async throws(BusError) {
        try await commitWakeUps.start()
    }

    /// Forgets remembered `messageId`s older than the dedupe window.
    /// - Returns: how many were forgotten.
    /// - Throws: `EventStoreError` when the store fails.
    @discardableResult
    public func pruneDedupeIndex() throws(EventStoreError) -> Int {
        try store.pruneSeenMessages(before: clock.nowMilliseconds - configuration.dedupeWindow.wholeMilliseconds)
    }

    /// Live event streams (`GET /v1/events/stream`) open now.
    public var liveStreamCount: Int { liveStreams.load(ordering: .relaxed) }

    /// Commits everything queued and stops the commit thread. Call after the HTTP server stopped.
    public func shutdown() {
        committer.stop()
        try? flushObservations()
    }

    deinit { committer.stop() }
}

/// Counts of what the collector did.
final class CollectorCounters: Sendable {
    let stored = Atomic<Int>(0)
    let duplicates = Atomic<Int>(0)
    let rejected = Atomic<Int>(0)
    let rejectedMessages = Atomic<Int>(0)

    func prometheusText(pendingEvents: Int) -> String {
        """
        # HELP courier_collector_events_stored_total Events committed to the store.
        # TYPE courier_collector_events_stored_total counter
        courier_collector_events_stored_total \(stored.load(ordering: .relaxed))
        # HELP courier_collector_events_duplicate_total Events skipped as duplicates of a seen messageId.
        # TYPE courier_collector_events_duplicate_total counter
        courier_collector_events_duplicate_total \(duplicates.load(ordering: .relaxed))
        # HELP courier_collector_requests_rejected_total Ingest requests answered with an error.
        # TYPE courier_collector_requests_rejected_total counter
        courier_collector_requests_rejected_total \(rejected.load(ordering: .relaxed))
        # HELP courier_collector_messages_rejected_total Messages of batches that failed validation and were not stored.
        # TYPE courier_collector_messages_rejected_total counter
        courier_collector_messages_rejected_total \(rejectedMessages.load(ordering: .relaxed))
        # HELP courier_collector_pending_events Events waiting for the next commit.
        # TYPE courier_collector_pending_events gauge
        courier_collector_pending_events \(pendingEvents)

        """
    }
}
