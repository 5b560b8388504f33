import CourierCore
import Synchronization

/// Project settings read through a short-lived cache, so a burst of batches costs one store read
/// per project, and a change made by another instance shows within the TTL.
final class SettingsCache: Sendable {
    private struct Entry {
        let settings: ProjectSettings?
        let readAt: UInt64
    }

    private let store: any EventStore
    private let clock: any Clock
    private let ttlNanoseconds: UInt64
    private let entries = Mutex<[String: Entry]>([:])

    init(store: any EventStore, clock: any Clock, ttl: Duration) {
        self.store = store
        self.clock = clock
        ttlNanoseconds = UInt64(max(0, ttl.wholeNanoseconds))
    }

    /// The settings of `writeKey`, or `nil` when the key is unknown.
    /// - Throws: `CollectorError` when the store cannot be read.
    func settings(writeKey: String) throws(CollectorError) -> ProjectSettings? {
        let now = clock.uptimeNanoseconds
        if let entry = entries.withLock({ $0[writeKey] }), now &- entry.readAt < ttlNanoseconds {
            return entry.settings
        }
        let settings = try store.settings(writeKey: writeKey)
        entries.withLock { cache in
            if cache.count > 10_000 { cache.removeAll() }
            cache[writeKey] = Entry(settings: settings, readAt: now)
        }
        return settings
    }

    /// Changes settings in one store transaction and refreshes the cache entry.
    /// - Throws: `CollectorError`.
    func update(writeKey: String, _ change: (ProjectSettings) throws(CollectorError) -> ProjectSettings)
        throws(CollectorError) -> ProjectSettings {
        let settings = try store.updateSettings(writeKey: writeKey, change)
        entries.withLock { $0[writeKey] = Entry(settings: settings, readAt: clock.uptimeNanoseconds) }
        return settings
    }

    /// Forgets a cached entry (after a project is registered).
    func invalidate(writeKey: String) {
        _ = entries.withLock { $0.removeValue(forKey: writeKey) }
    }
}
