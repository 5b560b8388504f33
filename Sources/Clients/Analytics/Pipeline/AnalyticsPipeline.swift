import CourierCore
import Foundation

/// The one actor behind an `Analytics` instance. It receives commands in call order through an
/// `AsyncStream`, and alone touches the queue, the identity, consent and settings.
actor AnalyticsPipeline {
    let configuration: AnalyticsConfiguration
    let stats: StatsRecorder
    let clock: any Clock
    /// Made on first use, on the actor: the default one builds a URLSession, which an app's
    /// launch thread should not pay for.
    lazy var transport: any AnalyticsTransport = configuration.transport ?? URLSessionTransport()
    let directory: URL

    var queue: EventQueue?
    var identity = Identity(anonymousId: Identifier.uuid())
    var consent: Consent
    var remote = RemoteSettings()
    var sessionId: Int64 = 0
    var policy: FlushPolicy
    var buffer: [PendingEvent] = []
    /// How many buffered events make the next group written at once: `writeBufferCount`,
    /// doubling during a burst up to `writeBufferBurstCount` (`record`).
    var writeGroup: Int?
    var bufferTimer: Task<Void, Never>?
    var flushTimer: Task<Void, Never>?
    var retryTimer: Task<Void, Never>?
    var upload = UploadState()
    /// Whether this launch's settings fetch has begun (the stats count it, for tests too).
    var settingsFetchStarted: Bool { stats.settingsFetchesStarted > 0 }
    /// The mailbox of the instance this pipeline serves: once it is closed (the app released the
    /// instance, or a newer one with the same write key replaced it), nothing new starts on its
    /// behalf, even before the run loop has seen the close.
    private var mailbox: Mailbox?
    /// Whether the app released the instance or a newer one replaced it (the run loop has
    /// stopped, or is about to: closing the mailbox is the only way it ends).
    var released: Bool { mailbox?.isClosed == true }
    var unauthorized = false
    var lastAttemptFailed = false
    /// The last upload and its answer, reported by `flushed()`.
    var lastUpload: UploadAttempt?
    var attempt = 0
    var sizer: BatchSizer
    var waiters: [CheckedContinuation<FlushResult, Never>] = []
    var backgroundedAt: UInt64?
    var context: [String: JSONValue] = [:]
    /// `context` plus the session and sampling members, rebuilt only when either changes, with
    /// its encoded bytes, so events share one dictionary and one encoding.
    var sessionContext: (rate: Double, session: Int64, value: [String: JSONValue], bytes: [UInt8])?
    var messageIds = RandomUUIDGenerator()
    /// The ids every event carries, as the scrubber left them (`configuration.redactsPII` never
    /// changes for an instance).
    var redactedIdentifiers = RedactedIdentifiers()

    /// The most calls handled before the actor's other jobs get a turn (about 1 ms of work).
    static let commandsPerTurn = 256

    /// This instance's hold on its write key's queue file among the process's instances.
    let claim: QueueClaim

    init(configuration: AnalyticsConfiguration, stats: StatsRecorder, claim: QueueClaim = .unregistered) {
        self.configuration = configuration
        self.claim = claim
        self.stats = stats
        clock = configuration.clock
        consent = configuration.defaultConsent
        policy = FlushPolicy(flushAt: configuration.flushAt, interval: configuration.flushInterval)
        sizer = BatchSizer(maximum: configuration.maximumBatchCount)
        directory = (configuration.storageDirectory ?? Self.defaultDirectory)
            .appendingPathComponent(Self.folderName(for: configuration.writeKey))
    }

    /// Opens storage (off the caller's path), then handles commands in call order until the
    /// mailbox is closed.
    func run(_ mailbox: Mailbox) async {
        self.mailbox = mailbox
        // The instance this one replaces closes the file first (its run ends soon after the app
        // released it); calls meanwhile wait in the mailbox.
        await claim.predecessor?.lettingGo()
        start()
        for await _ in mailbox.openDoorbell() {
            var batch = mailbox.takeAll()
            while !batch.isEmpty {
                // Give the actor's other jobs (timers, upload starts and results, the settings
                // fetch) their turn every `commandsPerTurn` calls: a caller that never pauses
                // would otherwise keep this loop going for ever, starving them, and their tasks
                // would pile up unfreed. Within one batch too: a flood hands over tens of
                // thousands of calls at once, and uploads waited for all of them (no upload was
                // in flight for the first half second of `courier-bench sdk-e2e`).
                var start = batch.startIndex
                while start < batch.endIndex {
                    let end = min(start + Self.commandsPerTurn, batch.endIndex)
                    for command in batch[start..<end] { handle(command) }
                    stats.turnHandled(end - start)
                    start = end
                    await Task.yield()
                }
                batch = mailbox.takeAll()
            }
        }
        for command in mailbox.takeAll() { handle(command) }
        // The instance was released or replaced: keep what is queued for the next launch (or
        // the instance that replaces it), and stop every timer so nothing runs on behalf of an
        // object the app no longer holds or uses.
        writeBuffer()
        for timer in [bufferTimer, flushTimer, retryTimer] { timer?.cancel() }
        bufferTimer = nil
        flushTimer = nil
        retryTimer = nil
        resumeWaiters()
        if mailbox.wasReplaced {
            log("a newer instance with this write key replaced this one; its later calls are dropped")
            // A queue in memory (the file was another process's or a newer build's) goes with
            // this instance: what it holds is counted, not silently lost.
            if let queue, queue.path == ":memory:" { stats.drop(.replaced, count: queue.count + buffer.count) }
        }
        // Close the file for the instance that replaces this one. An upload still in flight
        // leaves its batch queued (`deliver` reads the queue again after its answer): the next
        // owner sends it again, and the collector's dedupe by `messageId` stores it once.
        queue = nil
        claim.holder?.letGo()
    }

    private func start() {
        let now = clock.nowMilliseconds
        queue = openQueue(now: now)
        if let queue {
            if let saved = queue.value("consent").flatMap(Consent.init(rawValue:)) { consent = saved }
            identity = Identity.load(from: queue)
            // Ids are stored only with consent; without it this launch's ids live in memory only.
            if consent == .granted { try? identity.save(to: queue) }
            if let current = configuration.currentSettings {
                let settings = RemoteSettings(json: current)
                apply(settings)
                try? queue.setValue(JSONWriter.string(settings.json), for: "settings")
            } else if let text = queue.value("settings"), let json = try? JSONParser.parse(text) {
                apply(RemoteSettings(json: json))
            }
            let expired = (try? queue.dropExpired(before: now - configuration.maximumEventAge.wholeMilliseconds)) ?? 0
            stats.drop(.expired, count: expired)
        }
        startSession()
        context = ContextBuilder.base(configuration: configuration)
        updateQueueStats()
        // Whatever the last process left behind goes out now, without waiting for a new event.
        perform(policy.trigger(.launch, queued: queue?.count ?? 0))
        fetchSettingsIfAllowed()
    }

    /// The queue: the write key's file, or one in memory when the file is another's (another
    /// process, a newer build), or none when it cannot be opened.
    private func openQueue(now: Int64) -> EventQueue? {
        do {
            let (opened, opening) = try EventQueue.open(
                directory: directory, now: now, maximumFileBytes: configuration.maximumQueueFileBytes)
            switch opening {
            case .opened: break
            case .recovered: log("the queue file was damaged; it was moved aside and a new queue started")
            case .newerSchema:
                log("the queue file was written by a newer build; it is kept, and this launch queues in memory")
            case .heldByAnotherProcess:
                log(
                    "another process (or this one, through another name of the folder) holds this write key's "
                        + "queue folder; this instance queues in memory")
            }
            return opened
        } catch {
            log("the queue cannot be opened (\(error)); events are not persisted")
            return nil
        }
    }

    private func handle(_ command: Command) {
        switch command {
        case .event(let kind, let name, let properties, let timestamp, let extra):
            record(kind: kind, name: name, properties: properties, timestamp: timestamp, extra: extra)
        case .setConsent(let value):
            setConsent(value)
        case .flush:
            writeBuffer()
            perform(policy.trigger(.explicit, queued: queue?.count ?? 0))
        case .flushed(let continuation):
            writeBuffer()
            waiters.append(continuation)
            if (queue?.count ?? 0) == 0 || unauthorized || !remote.enabled || released {
                resumeWaiters()
            } else if retryTimer != nil && !uploading {
                // Backing off after a failure: say so now rather than wait out the backoff.
                resumeWaiters()
            } else if !uploading {
                perform(policy.trigger(.explicit, queued: queue?.count ?? 0))
            }
        case .reset:
            identity = Identity(anonymousId: Identifier.uuid())
            if let queue, consent == .granted { try? identity.save(to: queue) }
            startSession()
        case .lifecycle(let event):
            lifecycle(event)
        }
    }

    private func setConsent(_ value: Consent) {
        consent = value
        try? queue?.setValue(value.rawValue, for: "consent")
        switch value {
        case .granted:
            if let queue { try? identity.save(to: queue) }
            fetchSettingsIfAllowed()
            perform(policy.trigger(.explicit, queued: queue?.count ?? 0))
        case .denied:
            // Revoking consent purges everything not yet sent and forgets the user: the stored
            // ids and traits are deleted, and a later grant starts with a new anonymous id.
            stats.drop(.consent, count: buffer.count + (queue?.count ?? 0))
            buffer.removeAll()
            try? queue?.deleteAll()
            identity = Identity(anonymousId: Identifier.uuid())
            if let queue { try? Identity.delete(from: queue) }
            perform(policy.queueEmptied())
            updateQueueStats()
            resumeWaiters()
        case .pending:
            break
        }
    }

    private func lifecycle(_ event: LifecycleEvent) {
        switch event {
        case .background:
            backgroundedAt = clock.uptimeNanoseconds
            writeBuffer()
            perform(policy.trigger(.background, queued: queue?.count ?? 0))
        case .foreground:
            if let since = backgroundedAt, clock.uptimeNanoseconds &- since > 300_000_000_000 {
                startSession()
            }
            backgroundedAt = nil
        case .terminate:
            writeBuffer()
        }
    }

    /// A new session id: the start time in milliseconds, kept strictly increasing so two sessions
    /// started in the same millisecond still differ.
    private func startSession() {
        sessionId = max(clock.nowMilliseconds, sessionId + 1)
    }

    /// Runs the flush policy's actions.
    func perform(_ actions: [FlushPolicy.Action]) {
        for action in actions {
            switch action {
            case .upload:
                startUpload()
            case .scheduleTimer(let after):
                flushTimer?.cancel()
                flushTimer = Task { [clock] in
                    do { try await clock.sleep(for: after) } catch { return }
                    self.flushTimerFired()
                }
            case .cancelTimer:
                flushTimer?.cancel()
                flushTimer = nil
            }
        }
    }

    private func flushTimerFired() {
        flushTimer = nil
        writeBuffer()
        perform(policy.timerFired(queued: queue?.count ?? 0))
    }

    func apply(_ settings: RemoteSettings) {
        remote = settings
        policy.flushAt = settings.flushAt ?? configuration.flushAt
        policy.interval = settings.flushInterval ?? configuration.flushInterval
    }

    /// Fetches settings once per launch, and only with consent: before it, the SDK makes no
    /// request at all.
    func fetchSettingsIfAllowed() {
        // Not for an instance the app has released (its pipeline may start after the release).
        guard !released, configuration.fetchesRemoteSettings, consent == .granted, !settingsFetchStarted else {
            return
        }
        stats.settingsFetchWasStarted()
        Task { await self.fetchSettings() }
    }

    private func fetchSettings() async {
        let url = configuration.host + "/v1/projects/\(configuration.writeKey)/settings"
        let result = await transport.send(TransportRequest(method: "GET", url: url))
        guard case .response(200, _, let body) = result, let json = try? JSONParser.parse(body) else { return }
        let settings = RemoteSettings(json: json)
        apply(settings)
        try? queue?.setValue(JSONWriter.string(settings.json), for: "settings")
        stats.settingsWereApplied()
        if settings.enabled { startUpload() }
    }

    func updateQueueStats() {
        let count = queue?.count ?? 0
        let bytes = queue?.bytes ?? 0
        stats.update {
            $0.queuedEvents = count
            $0.queueBytes = bytes
        }
    }

    func resumeWaiters() {
        guard !waiters.isEmpty else { return }
        let result = FlushResult(
            remaining: (queue?.count ?? 0) + buffer.count,
            blocked: lastAttemptFailed || unauthorized || mailbox?.wasReplaced == true,
            lastUpload: lastUpload)
        let all = waiters
        waiters.removeAll()
        all.forEach { $0.resume(returning: result) }
    }

    private var loggedOnce: Set<String> = []

    func log(_ message: String, once key: String? = nil) {
        if let key {
            guard !loggedOnce.contains(key) else { return }
            loggedOnce.insert(key)
        }
        configuration.logger?("courier-analytics: \(message)")
    }

    static var defaultDirectory: URL { defaultDirectory(environment: ProcessInfo.processInfo.environment) }

    /// Application Support on Apple platforms; `$HOME/.courier-analytics` elsewhere. `HOME` is
    /// read first because Foundation's `homeDirectoryForCurrentUser` is the password database's
    /// home on Linux, whatever `HOME` says.
    static func defaultDirectory(environment: [String: String]) -> URL {
        #if canImport(Darwin)
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            return base.appendingPathComponent("courier-analytics")
        #else
            let home =
                environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
                ?? FileManager.default.homeDirectoryForCurrentUser
            return home.appendingPathComponent(".courier-analytics")
        #endif
    }

    /// A folder name safe on every file system, unique per write key.
    static func folderName(for writeKey: String) -> String {
        let safe = writeKey.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "_" }
        return String(safe.prefix(40)) + "-" + String(Sampler.stableHash(writeKey), radix: 16)
    }
}
