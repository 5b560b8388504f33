import Foundation
import Synchronization

/// Something that happens once (a thread has ended, a server has stopped), waited for by threads
/// (`wait()`) or tasks (`await value`) without polling.
final class CompletionEvent<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [@Sendable (Value) -> Void] = []
    }

    private let state = Mutex(State())

    /// Whether it has happened.
    var hasHappened: Bool { state.withLock { $0.value != nil } }

    /// It has happened: wakes every waiter with `value`. Later calls are ignored.
    func signal(_ value: Value) {
        let waiters = state.withLock { state -> [@Sendable (Value) -> Void] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0(value) }
    }

    /// Calls `wake` once it has happened (at once if it has).
    private func onSignal(_ wake: @escaping @Sendable (Value) -> Void) {
        let value = state.withLock { state -> Value? in
            if state.value == nil { state.waiters.append(wake) }
            return state.value
        }
        if let value { wake(value) }
    }

    /// Blocks the calling thread until it has happened.
    func wait() -> Value {
        let semaphore = DispatchSemaphore(value: 0)
        onSignal { _ in semaphore.signal() }
        semaphore.wait()
        // Set before the semaphore was signalled, and never unset.
        return state.withLock { $0.value }!
    }

    /// Suspends until it has happened.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in onSignal { continuation.resume(returning: $0) } }
        }
    }
}
