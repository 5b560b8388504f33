import Synchronization

/// Why an event was dropped.
public enum DropReason: String, Sendable, CaseIterable {
    /// Consent was denied.
    case consent
    /// The user or session is outside the sample.
    case sampled
    /// The kill switch (remote `enabled: false`) is on.
    case disabled
    /// A plugin returned `nil`.
    case plugin
    /// Over `maximumEventBytes`.
    case tooLarge
    /// The queue's byte cap pushed it out (oldest first).
    case queueFull
    /// Older than `maximumEventAge`.
    case expired
    /// The collector refused it as unreadable (400, once bisecting left it alone in its batch).
    case poison
    /// The collector stored the rest of its batch but listed this message as invalid.
    case rejected
    /// The pipeline was too far behind; the call was not accepted.
    case overflow
    /// The queue could not be written (for example a full disk).
    case storage
    /// The call reached an instance that a newer one with the same write key replaced.
    case replaced
}

/// Counters the host can read at any time.
public struct AnalyticsStats: Sendable, Equatable {
    /// Calls to `track`/`screen`/`identify`/`group`/`alias`.
    public var tracked = 0
    /// Events written to the queue.
    public var stored = 0
    /// Events the collector acknowledged.
    public var sent = 0
    /// Dropped events by reason.
    public var dropped: [DropReason: Int] = [:]
    /// Upload attempts that will be retried.
    public var retries = 0
    /// Bytes in the queue.
    public var queueBytes = 0
    /// Events in the queue.
    public var queuedEvents = 0

    /// Drops of one reason.
    public func dropped(_ reason: DropReason) -> Int { dropped[reason] ?? 0 }
}

/// The shared, lock-protected counters behind `Analytics.stats`.
final class StatsRecorder: Sendable {
    private let state = Mutex(AnalyticsStats())
    private let settingsApplied = Atomic<Int>(0)
    private let settingsFetches = Atomic<Int>(0)
    private let turn = Atomic<Int>(0)

    /// The most calls the pipeline handled in one turn on its actor (a test hook).
    var longestTurn: Int { turn.load(ordering: .relaxed) }

    func turnHandled(_ commands: Int) {
        _ = turn.max(commands, ordering: .relaxed)
    }

    /// How many times remote settings were fetched and applied (a test hook).
    var remoteSettingsApplied: Int { settingsApplied.load(ordering: .acquiring) }

    func settingsWereApplied() { settingsApplied.add(1, ordering: .releasing) }

    /// How many settings fetches the pipeline has started (a test hook).
    var settingsFetchesStarted: Int { settingsFetches.load(ordering: .acquiring) }

    func settingsFetchWasStarted() { settingsFetches.add(1, ordering: .releasing) }

    var snapshot: AnalyticsStats { state.withLock { $0 } }

    func update(_ body: (inout AnalyticsStats) -> Void) {
        state.withLock { body(&$0) }
    }

    func drop(_ reason: DropReason, count: Int = 1) {
        guard count > 0 else { return }
        state.withLock { $0.dropped[reason, default: 0] += count }
    }
}
