import Synchronization

/// The environments as served, by key, and a count of forgets: a document read from the store
/// before a forget (another instance's edit) is not kept, since it may predate that edit.
final class ServedCache: Sendable {
    private struct State {
        var entries: [String: FlagService.Served] = [:]
        /// Grows with every `forget`.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// `environment`'s cached document, and the generation to hand `keep` after a store read.
    func lookup(_ environment: String) -> (entry: FlagService.Served?, generation: UInt64) {
        state.withLock { ($0.entries[environment], $0.generation) }
    }

    /// Drops `environment`'s document.
    func forget(_ environment: String) {
        state.withLock { state in
            state.entries[environment] = nil
            state.generation &+= 1
        }
    }

    /// Keeps `entry` unless something was forgotten since `generation`, when it was read.
    func keep(_ entry: FlagService.Served, for environment: String, readAt generation: UInt64) {
        state.withLock { state in
            if generation == state.generation { state.entries[environment] = entry }
        }
    }

    /// The cached environments and the versions they serve.
    var versions: [String: Int64] { state.withLock { $0.entries.mapValues(\.document.version) } }
}
