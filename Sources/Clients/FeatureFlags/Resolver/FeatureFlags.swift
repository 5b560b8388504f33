import CourierCore
import FlagRules
import Foundation
import Synchronization

/// Courier's feature flags client: one resolver (debug override → targeting rules → remote
/// value, last-known-good on disk → baked default), fetched definitions activated only at safe
/// points, a kill switch that holds offline.
///
/// ```swift
/// let flags = FeatureFlags(configuration: .init(
///     serverURL: "https://api.example.com", environmentKey: "production",
///     cacheStore: FileFlagCacheStore(path: cachesFolder + "/flags.json")))
/// await flags.start()                      // last launch's fetch becomes active; fetches again
/// flags.setContext(EvaluationContext(targetingKey: userId, attributes: ["country": "FR"]))
/// if flags.value(.newCheckout) { … }
/// // at screen entry:
/// flags.activate()
/// ```
public final class FeatureFlags: FlagProvider {
    struct State {
        var active: FlagSnapshot? { didSet { rebuildView() } }
        var pending: FlagSnapshot? {
            didSet {
                pendingKills = pending?.document.disabledKeys ?? []
                rebuildView()
            }
        }
        var overrides: [String: JSONValue] = [:] { didSet { rebuildView() } }
        var context = EvaluationContext() { didSet { rebuildView() } }
        /// Flags killed by the pending fetch: computed once per fetch, not per evaluation.
        var pendingKills: Set<String> = []
        /// What evaluations read: replaced whole whenever one of its parts changes.
        var view = ResolverView(active: nil, kills: [], overrides: [:], context: EvaluationContext())
        var schedule: FetchSchedule
        var observers: [UInt64: @Sendable (FlagSnapshot) -> Void] = [:]
        var nextObserver: UInt64 = 0
        var started = false

        mutating func rebuildView() {
            view = ResolverView(active: active, kills: pendingKills, overrides: overrides, context: context)
        }
    }

    /// The configuration in force.
    public let configuration: FeatureFlagsConfiguration
    let state: Mutex<State>

    /// Creates the client; it touches neither disk nor network until `start()`.
    public init(configuration: FeatureFlagsConfiguration) {
        self.configuration = configuration
        state = Mutex(
            State(
                schedule: FetchSchedule(
                    minimumInterval: configuration.minimumFetchInterval, backoff: configuration.backoff)))
    }

    /// `courier`.
    public var name: String { "courier" }

    /// The value of `flag` for the current context.
    @inlinable
    public func value<Value>(_ flag: Flag<Value>) -> Value { details(flag).value }

    /// The evaluation details of `flag` for the current context.
    @inlinable
    public func details<Value>(_ flag: Flag<Value>) -> EvaluationDetails<Value> {
        EvaluationDetails(flag: flag, resolution: resolveForCurrentContext(key: flag.key, type: Value.flagType))
    }

    /// `resolve(key:type:context:)` for the context set with `setContext(_:)`.
    @usableFromInline
    func resolveForCurrentContext(key: String, type: FlagType) -> Resolution {
        let view = state.withLock { $0.view }
        return resolve(key: key, type: type, view.context, view)
    }

    /// Resolves one flag: override, kill switch, rules, remote value; `nil` value = default.
    public func resolve(key: String, type: FlagType, context: EvaluationContext) -> Resolution {
        resolve(key: key, type: type, context, state.withLock { $0.view })
    }

    /// The lock is held only to take the view; evaluation reads it unlocked.
    @inline(__always)
    private func resolve(key: String, type: FlagType, _ context: EvaluationContext, _ view: ResolverView)
        -> Resolution
    {
        if !view.overrides.isEmpty, let override = view.overrides[key] {
            return Resolution(value: override, variant: "override", reason: .static)
        }
        guard let active = view.active else { return Resolution(value: nil, reason: .default) }
        return active.resolve(
            key: key, type: type, context: context, extraKills: view.kills, stale: { self.isStale(active) })
    }

    /// Sets who flags are evaluated for.
    public func setContext(_ context: EvaluationContext) { state.withLock { $0.context = context } }

    /// A debug override: `flag` gives `value` (reason `STATIC`, variant `override`) until cleared.
    public func override<Value>(_ flag: Flag<Value>, with value: Value?) {
        state.withLock { $0.overrides[flag.key] = value?.flagJSON }
    }

    /// The definitions every evaluation reads now, or `nil` before any.
    public var activeSnapshot: FlagSnapshot? { state.withLock { $0.active } }

    /// Fetched definitions waiting for `activate()`.
    public var pendingSnapshot: FlagSnapshot? { state.withLock { $0.pending } }

    /// Makes the fetched definitions the active ones, at a point the app chooses (screen entry);
    /// observers then see the new snapshot, once.
    /// - Returns: whether there was anything to activate.
    @discardableResult
    public func activate() -> Bool {
        let (snapshot, observers) = state.withLock { state -> (FlagSnapshot?, [@Sendable (FlagSnapshot) -> Void]) in
            guard let pending = state.pending else { return (nil, []) }
            state.active = pending
            state.pending = nil
            return (pending, Array(state.observers.values))
        }
        guard let snapshot else { return false }
        persist()
        for observer in observers { observer(snapshot) }
        return true
    }

    /// Calls `handler` with each activated snapshot; keep the token to stop.
    public func observe(_ handler: @escaping @Sendable (FlagSnapshot) -> Void) -> FlagObservation {
        let id = state.withLock { state in
            state.nextObserver += 1
            state.observers[state.nextObserver] = handler
            return state.nextObserver
        }
        return FlagObservation { [weak self] in self?.state.withLock { _ = $0.observers.removeValue(forKey: id) } }
    }

    /// Loads the last-known-good definitions (the previous launch's fetch becomes active: the
    /// next launch is a safe point) and fetches. Call once at launch.
    @discardableResult
    public func start() async -> FetchOutcome {
        let cache = configuration.cacheStore.load()
        let loaded = (cache?.pending).flatMap(Self.snapshot) ?? (cache?.active).flatMap(Self.snapshot)
        let (observers, first) = state.withLock { state -> ([@Sendable (FlagSnapshot) -> Void], Bool) in
            let first = !state.started
            state.started = true
            if first, state.active == nil, let loaded { state.active = loaded }
            return (Array(state.observers.values), first)
        }
        if first, let loaded {
            persist()
            for observer in observers { observer(loaded) }
        }
        return await fetch()
    }

    /// Fetches when the app comes to the foreground (subject to the minimum interval).
    @discardableResult
    public func enteredForeground() async -> FetchOutcome { await fetch() }

    func isStale(_ snapshot: FlagSnapshot) -> Bool {
        configuration.clock.now.timeIntervalSince(snapshot.fetchedAt)
            > Double(configuration.staleAfter.components.seconds)
    }

    static func snapshot(_ entry: FlagCache.Entry) -> FlagSnapshot? {
        guard let document = try? FlagDocument.parse(entry.document) else { return nil }
        return FlagSnapshot(
            document: document, etag: entry.etag,
            fetchedAt: Date(timeIntervalSince1970: Double(entry.fetchedAtMilliseconds) / 1000), source: .cache)
    }

    func persist() {
        let cache = state.withLock { state in
            FlagCache(active: state.active.map(Self.entry), pending: state.pending.map(Self.entry))
        }
        try? configuration.cacheStore.save(cache)
    }

    static func entry(_ snapshot: FlagSnapshot) -> FlagCache.Entry {
        FlagCache.Entry(
            document: snapshot.document.json, etag: snapshot.etag,
            fetchedAtMilliseconds: Int64((snapshot.fetchedAt.timeIntervalSince1970 * 1000).rounded()))
    }
}

/// Everything one evaluation reads, immutable: the lock is held only to take a reference to it.
final class ResolverView: Sendable {
    let active: FlagSnapshot?
    let kills: Set<String>
    let overrides: [String: JSONValue]
    let context: EvaluationContext

    init(active: FlagSnapshot?, kills: Set<String>, overrides: [String: JSONValue], context: EvaluationContext) {
        self.active = active
        self.kills = kills
        self.overrides = overrides
        self.context = context
    }
}

/// Keeps an observer registered; `cancel()` (or dropping every copy's owner) removes it.
public struct FlagObservation: Sendable {
    private let remove: @Sendable () -> Void
    init(_ remove: @escaping @Sendable () -> Void) { self.remove = remove }
    /// Stops the observer.
    public func cancel() { remove() }
}
