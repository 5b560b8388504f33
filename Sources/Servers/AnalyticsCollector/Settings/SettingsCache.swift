import CourierCore
import Synchronization
import CourierHTTP

/// Project settings read through a short-lived cache, so a burst of batches costs one store read
/// per project, and a change made by another instance shows within the TTL.
///
/// Known projects and unknown keys are kept apart: unknown keys (which anyone can send, as many
/// as they like) go to a small, bounded set that is emptied when full, so they can neither grow
/// the memory nor push real projects out.
final class SettingsCache: Sendable {
    private struct Entry {
        let settings: ProjectSettings
        let readAt: UInt64
    }

    private struct State {
        var known: [String: Entry] = [:]
        var unknown: [String: UInt64] = [:]
    }

    /// Unknown keys remembered at most (each at most `WriteKey.maximumBytes` long).
    static let maximumUnknownKeys = 4_096
    /// Known projects cached at most; beyond, the cache is emptied and refilled as read.
    static let maximumKnownProjects = 100_000

    private let store: any EventStore
    private let clock: any Clock
    private let ttlNanoseconds: UInt64
    private let state = Mutex(State())

    init(store: any EventStore, clock: any Clock, ttl: Duration) {
        self.store = store
        self.clock = clock
        ttlNanoseconds = UInt64(max(0, ttl.wholeNanoseconds))
    }

    /// The settings of `writeKey`, or `nil` when the key is unknown.
    /// - Throws: `HTTPError` (`storageUnavailable`) when the store cannot be read.
    func settings(writeKey: String) throws(HTTPError) -> ProjectSettings? {
        let now = clock.uptimeNanoseconds
        if let cached = cached(writeKey: writeKey, now: now) { return cached }
        let settings: ProjectSettings?
        do {
            settings = try store.settings(writeKey: writeKey)
        } catch {
            throw HTTPError(error)
        }
        remember(settings, for: writeKey, at: now)
        return settings
    }

    /// What the cache holds for `writeKey` without reading the store: `.some(settings)` for a
    /// known project, `.some(nil)` for a key known to be unknown, `nil` when it holds nothing
    /// current.
    func cached(writeKey: String) -> ProjectSettings?? {
        cached(writeKey: writeKey, now: clock.uptimeNanoseconds)
    }

    private func cached(writeKey: String, now: UInt64) -> ProjectSettings?? {
        state.withLock { state in
            if let entry = state.known[writeKey], now &- entry.readAt < ttlNanoseconds { return .some(entry.settings) }
            if let readAt = state.unknown[writeKey], now &- readAt < ttlNanoseconds { return .some(nil) }
            return nil
        }
    }

    /// How many unknown keys are remembered now.
    var unknownKeyCount: Int { state.withLock { $0.unknown.count } }

    /// Changes settings in one store transaction and refreshes the cache entry.
    /// - Throws: `HTTPError` from `change`, or `storageUnavailable`.
    func update(writeKey: String, _ change: (ProjectSettings) throws(HTTPError) -> ProjectSettings)
        throws(HTTPError) -> ProjectSettings
    {
        let settings: ProjectSettings
        do {
            settings = try store.updateSettings(writeKey: writeKey) { current in try change(current) }
        } catch let error as HTTPError {
            throw error
        } catch let error as EventStoreError {
            throw HTTPError(error)
        } catch {
            throw HTTPError(.storageUnavailable, "the event store is unavailable; nothing was changed")
        }
        remember(settings, for: writeKey, at: clock.uptimeNanoseconds)
        return settings
    }

    /// Forgets a cached entry (after a project is registered).
    func invalidate(writeKey: String) {
        state.withLock { state in
            state.known[writeKey] = nil
            state.unknown[writeKey] = nil
        }
    }

    /// Caches a store read: a project's settings, or that the key is unknown.
    private func remember(_ settings: ProjectSettings?, for writeKey: String, at now: UInt64) {
        // A full table is swapped out under the lock and freed after it, so a reader (the
        // engine's loop answers cached settings) never waits while 100,000 entries are freed.
        let discarded = state.withLock { state -> (known: [String: Entry], unknown: [String: UInt64]) in
            var discarded: (known: [String: Entry], unknown: [String: UInt64]) = ([:], [:])
            if let settings {
                if state.known.count >= Self.maximumKnownProjects { swap(&discarded.known, &state.known) }
                state.known[writeKey] = Entry(settings: settings, readAt: now)
                state.unknown[writeKey] = nil
            } else {
                if state.unknown.count >= Self.maximumUnknownKeys { swap(&discarded.unknown, &state.unknown) }
                state.unknown[writeKey] = now
            }
            return discarded
        }
        _ = discarded
    }
}
