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
    let failuresLeft = Atomic<Int>(0)
    let commits = Atomic<Int>(0)

    init(_ base: any EventStore) { self.base = base }

    func commit(_ batches: [[PreparedMessage]], dedupeCutoff: Int64) throws(CollectorError) -> [CommitOutcome] {
        commits.add(1, ordering: .relaxed)
        if holdCommits.load(ordering: .acquiring) {
            commitEntered.signal()
            releaseCommit.wait()
        }
        if failuresLeft.load(ordering: .acquiring) > 0 {
            failuresLeft.subtract(1, ordering: .relaxed)
            throw CollectorError(.storageUnavailable, "event store failed: injected failure", status: 503)
        }
        return try base.commit(batches, dedupeCutoff: dedupeCutoff)
    }

    func events(writeKey: String, after: Int64, limit: Int) throws(CollectorError) -> EventPage {
        try base.events(writeKey: writeKey, after: after, limit: limit)
    }

    func pruneSeenMessages(before cutoff: Int64) throws(CollectorError) -> Int {
        try base.pruneSeenMessages(before: cutoff)
    }

    func settings(writeKey: String) throws(CollectorError) -> ProjectSettings? { try base.settings(writeKey: writeKey) }

    func saveSettings(_ settings: ProjectSettings, writeKey: String) throws(CollectorError) {
        try base.saveSettings(settings, writeKey: writeKey)
    }

    func registerProject(writeKey: String) throws(CollectorError) { try base.registerProject(writeKey: writeKey) }

    func updateSettings(writeKey: String, _ change: (ProjectSettings) throws(CollectorError) -> ProjectSettings)
        throws(CollectorError) -> ProjectSettings {
        try base.updateSettings(writeKey: writeKey, change)
    }
}
