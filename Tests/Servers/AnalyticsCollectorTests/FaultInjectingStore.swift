import AnalyticsCollector
import Foundation
import Synchronization

/// Wraps a real store: can hold commits at a gate (to keep a request in flight) and fail the
/// next commits (to stand in for a store that is down).
final class FaultInjectingStore: EventStore {
    let base: any EventStore
    let holdCommits = Atomic<Bool>(false)
    let commitEntered = DispatchSemaphore(value: 0)
    let releaseCommit = DispatchSemaphore(value: 0)
    /// Signalled when a commit that was held at the gate has finished (landed or failed).
    let heldCommitFinished = DispatchSemaphore(value: 0)
    let failuresLeft = Atomic<Int>(0)
    let commits = Atomic<Int>(0)
    let settingsReads = Atomic<Int>(0)
    /// Dedupe entries the prunes so far have forgotten.
    let forgotten = Atomic<Int>(0)
    /// Messages committed straight to the base store when `recentEvents` is next called.
    let commitBeforeRecentRead = Mutex<[PreparedMessage]>([])

    init(_ base: any EventStore) { self.base = base }

    func commit(_ batches: [[PreparedMessage]], dedupeCutoff: Int64) throws(EventStoreError) -> [CommitOutcome] {
        commits.add(1, ordering: .relaxed)
        if holdCommits.load(ordering: .acquiring) {
            commitEntered.signal()
            releaseCommit.wait()
            defer { heldCommitFinished.signal() }
            return try commitUnlessFailing(batches, dedupeCutoff: dedupeCutoff)
        }
        return try commitUnlessFailing(batches, dedupeCutoff: dedupeCutoff)
    }

    private func commitUnlessFailing(_ batches: [[PreparedMessage]], dedupeCutoff: Int64) throws(EventStoreError)
        -> [CommitOutcome]
    {
        if failuresLeft.load(ordering: .acquiring) > 0 {
            failuresLeft.subtract(1, ordering: .relaxed)
            throw EventStoreError(.unavailable, detail: "SQLite error 10: disk I/O error (INSERT INTO events …)")
        }
        return try base.commit(batches, dedupeCutoff: dedupeCutoff)
    }

    func events(writeKey: String, after: Int64, limit: Int) throws(EventStoreError) -> EventPage {
        try base.events(writeKey: writeKey, after: after, limit: limit)
    }

    /// Commits what `commitBeforeRecentRead` holds (once) before reading: an event that commits
    /// between a live stream's subscription and its first read.
    func recentEvents(writeKey: String, limit: Int) throws(EventStoreError) -> [StoredEvent] {
        let early = commitBeforeRecentRead.withLock { pending in
            defer { pending = [] }
            return pending
        }
        if !early.isEmpty { _ = try base.commit([early], dedupeCutoff: 0) }
        return try base.recentEvents(writeKey: writeKey, limit: limit)
    }

    func pruneSeenMessages(before cutoff: Int64) throws(EventStoreError) -> Int {
        let count = try base.pruneSeenMessages(before: cutoff)
        forgotten.add(count, ordering: .relaxed)
        return count
    }

    func settings(writeKey: String) throws(EventStoreError) -> ProjectSettings? {
        settingsReads.add(1, ordering: .relaxed)
        return try base.settings(writeKey: writeKey)
    }

    func saveSettings(_ settings: ProjectSettings, writeKey: String) throws(EventStoreError) {
        try base.saveSettings(settings, writeKey: writeKey)
    }

    func registerProject(writeKey: String) throws(EventStoreError) { try base.registerProject(writeKey: writeKey) }

    func updateSettings(writeKey: String, _ change: (ProjectSettings) throws -> ProjectSettings) throws
        -> ProjectSettings
    {
        try base.updateSettings(writeKey: writeKey, change)
    }

    func usage() throws(EventStoreError) -> [String: Int64] { try base.usage() }
}
