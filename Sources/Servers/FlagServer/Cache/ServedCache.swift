import CourierCore
import Synchronization

/// The environments as served, by key; the keys recently read and not found; and a count of
/// forgets: a document (or an absence) read from the store before a forget (another instance's
/// edit) is not kept, since it may predate that edit.
///
/// Unknown keys are what any client can send: app installs still polling an environment that
/// was deleted, or a typo shipped in a build. Each used to cost a store read per request; now one
/// read per key per `unknownLifetime`, answered from memory meanwhile. They are kept apart from
/// the served documents, in a set of at most `maximumUnknown` keys (each at most 128 bytes): when
/// it is full its expired keys are dropped, and then, if it is still full, all of them, so they
/// can neither grow the memory nor push a real environment out.
final class ServedCache: Sendable {
    private struct State {
        var entries: [String: FlagService.Served] = [:]
        /// Keys read and not found, with when (monotonic nanoseconds).
        var unknown: [String: UInt64] = [:]
        /// Grows with every `forget`.
        var generation: UInt64 = 0
    }

    /// What the cache holds for one key.
    struct Lookup {
        /// The document served, when cached.
        let entry: FlagService.Served?
        /// Whether the key was read and not found within `unknownLifetime`.
        let isUnknown: Bool
        /// The generation to hand `keep` or `keepUnknown` after a store read.
        let generation: UInt64
    }

    /// Unknown keys remembered at most.
    static let maximumUnknown = 4_096

    private let clock: any Clock
    private let unknownLifetimeNanoseconds: UInt64
    private let state = Mutex(State())

    /// - Parameters:
    ///   - clock: the time unknown keys are remembered by.
    ///   - unknownLifetime: how long a key read and not found is answered from memory.
    init(clock: any Clock, unknownLifetime: Duration) {
        self.clock = clock
        unknownLifetimeNanoseconds = UInt64(max(0, unknownLifetime.wholeNanoseconds))
    }

    /// What is cached for `environment`.
    func lookup(_ environment: String) -> Lookup {
        let now = clock.uptimeNanoseconds
        return state.withLock { state in
            let entry = state.entries[environment]
            let unknown =
                entry == nil && state.unknown[environment].map { now &- $0 < unknownLifetimeNanoseconds } == true
            return Lookup(entry: entry, isUnknown: unknown, generation: state.generation)
        }
    }

    /// Drops `environment`'s document, or its being unknown.
    func forget(_ environment: String) {
        state.withLock { state in
            state.entries[environment] = nil
            state.unknown[environment] = nil
            state.generation &+= 1
        }
    }

    /// Keeps `entry` unless something was forgotten since `generation`, when it was read.
    func keep(_ entry: FlagService.Served, for environment: String, readAt generation: UInt64) {
        state.withLock { state in
            if generation == state.generation { state.entries[environment] = entry }
        }
    }

    /// Remembers that `environment` was not found, unless something was forgotten since
    /// `generation`, when it was read.
    func keepUnknown(_ environment: String, readAt generation: UInt64) {
        let now = clock.uptimeNanoseconds
        state.withLock { state in
            guard generation == state.generation else { return }
            if state.unknown[environment] == nil, state.unknown.count >= Self.maximumUnknown {
                state.unknown = state.unknown.filter { now &- $0.value < unknownLifetimeNanoseconds }
                if state.unknown.count >= Self.maximumUnknown { state.unknown.removeAll(keepingCapacity: true) }
            }
            state.unknown[environment] = now
        }
    }

    /// Drops the unknown keys that are among `stored` (environments that exist now): how an
    /// environment another instance created is served here when its wake-up was lost.
    func forgetUnknown(in stored: some Collection<String>) {
        state.withLock { state in
            guard !state.unknown.isEmpty else { return }
            for environment in stored where state.unknown[environment] != nil {
                state.unknown[environment] = nil
                state.generation &+= 1
            }
        }
    }

    /// The cached environments and the versions they serve.
    var versions: [String: Int64] { state.withLock { $0.entries.mapValues(\.document.version) } }

    /// Whether any unknown key is remembered and current; expired ones are dropped here, so
    /// the version poll stops reading the store for them.
    var hasUnknown: Bool {
        let now = clock.uptimeNanoseconds
        return state.withLock { state in
            if !state.unknown.isEmpty {
                state.unknown = state.unknown.filter { now &- $0.value < unknownLifetimeNanoseconds }
            }
            return !state.unknown.isEmpty
        }
    }

    /// Unknown keys remembered now.
    var unknownCount: Int { state.withLock { $0.unknown.count } }
}
