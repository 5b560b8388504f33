import Synchronization

/// Runs one piece of work per key however many callers ask for it: later callers wait for the
/// running one. A caller whose task is cancelled leaves at once; the work itself is cancelled
/// only when its last waiter has left.
final class Coalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Job {
        let generation: UInt64
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
        var task: Task<Void, Never>?
    }

    private struct State {
        var jobs: [Key: Job] = [:]
        var nextID: UInt64 = 0

        mutating func takeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    private let state = Mutex(State())

    /// Keys with work running.
    var runningKeys: [Key] { state.withLock { Array($0.jobs.keys) } }

    /// Callers waiting on `key`'s work.
    func waiterCount(for key: Key) -> Int { state.withLock { $0.jobs[key]?.waiters.count ?? 0 } }

    /// `key`'s value: from the work already running for it, or from `work` started now.
    /// - Throws: what `work` throws, or `CancellationError` when this caller's task is cancelled.
    func value(for key: Key, work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let id = state.withLock { $0.takeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                state.withLock { state in
                    // The cancellation handler may have run before this registration: it found
                    // nothing to remove, so this caller must not wait.
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else if state.jobs[key] != nil {
                        state.jobs[key]?.waiters[id] = continuation
                    } else {
                        let generation = state.takeID()
                        var job = Job(generation: generation, waiters: [id: continuation])
                        job.task = Task { await self.run(key, generation: generation, work) }
                        state.jobs[key] = job
                    }
                }
            }
        } onCancel: {
            leave(key, id: id)
        }
    }

    private func run(_ key: Key, generation: UInt64, _ work: @Sendable () async throws -> Value) async {
        let result: Result<Value, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard let job = state.jobs[key], job.generation == generation else { return [] }
            state.jobs[key] = nil
            return Array(job.waiters.values)
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    private func leave(_ key: Key, id: UInt64) {
        let (waiter, abandoned) = state.withLock {
            state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            guard let waiter = state.jobs[key]?.waiters.removeValue(forKey: id) else { return (nil, nil) }
            guard state.jobs[key]?.waiters.isEmpty == true else { return (waiter, nil) }
            let task = state.jobs[key]?.task
            state.jobs[key] = nil
            return (waiter, task)
        }
        waiter?.resume(throwing: CancellationError())
        abandoned?.cancel()
    }
}
