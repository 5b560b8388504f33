import Synchronization

/// At most `limit` holders at a time; waiters are admitted highest priority first, in arrival
/// order within a priority, and a waiter's priority can change while it waits.
final class PriorityGate<Key: Hashable & Sendable>: Sendable {
    private struct Waiter {
        let id: UInt64
        let key: Key
        var priority: ImagePriority
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    /// Creates a gate admitting `limit` holders at once (at least 1).
    init(limit: Int) { state = Mutex(State(available: max(1, limit))) }

    /// Keys waiting, in the order they would be admitted.
    var queuedKeys: [Key] { state.withLock { Self.ordered($0.waiters).map(\.key) } }

    /// Waits for a place, then runs `body` and gives the place back.
    /// - Throws: `CancellationError` when cancelled while waiting, or what `body` throws.
    func run<T: Sendable>(_ key: Key, priority: ImagePriority, _ body: () async throws -> T) async throws -> T {
        try await enter(key, priority: priority)
        defer { leave() }
        return try await body()
    }

    /// Changes the priority of `key`'s waiters (a cell scrolled into view goes first).
    func reprioritize(_ key: Key, to priority: ImagePriority) {
        state.withLock { state in
            for i in state.waiters.indices where state.waiters[i].key == key { state.waiters[i].priority = priority }
        }
    }

    private func enter(_ key: Key, priority: ImagePriority) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else if state.available > 0 {
                        state.available -= 1
                        continuation.resume()
                    } else {
                        state.waiters.append(Waiter(id: id, key: key, priority: priority, continuation: continuation))
                    }
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    private func leave() {
        let next = state.withLock { state -> Waiter? in
            guard let first = Self.ordered(state.waiters).first,
                let index = state.waiters.firstIndex(where: { $0.id == first.id })
            else {
                state.available += 1
                return nil
            }
            return state.waiters.remove(at: index)
        }
        next?.continuation.resume()
    }

    /// Highest priority first; a stable sort keeps arrival order within a priority.
    private static func ordered(_ waiters: [Waiter]) -> [Waiter] {
        waiters.enumerated().sorted { a, b in
            a.element.priority != b.element.priority ? a.element.priority > b.element.priority : a.offset < b.offset
        }.map(\.element)
    }
}
