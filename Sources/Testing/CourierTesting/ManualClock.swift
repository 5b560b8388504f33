import CourierCore
import Foundation
import Synchronization

/// A clock that moves only when a test calls `advance(by:)`; sleepers wake when their deadline is
/// reached.
///
/// A test that advances the clock first waits until the code under test sleeps on it, so the
/// advance cannot run before the timer exists:
/// ```swift
/// try await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(30))
/// ```
public final class ManualClock: Clock {
    private struct Sleeper {
        let id: UInt64
        let deadline: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var nanoseconds: UInt64
        var wall: Date
        var nextId: UInt64 = 0
        var sleepers: [Sleeper] = []
        var waiters: [Waiter] = []

        mutating func takeId() -> UInt64 {
            nextId += 1
            return nextId
        }

        /// Removes the sleeper or waiter `id` (its task was cancelled) and returns its continuation.
        mutating func remove(_ id: UInt64) -> CheckedContinuation<Void, any Error>? {
            if let index = sleepers.firstIndex(where: { $0.id == id }) {
                return sleepers.remove(at: index).continuation
            }
            if let index = waiters.firstIndex(where: { $0.id == id }) { return waiters.remove(at: index).continuation }
            return nil
        }

        /// Removes and returns the waiters that the current number of sleepers satisfies.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, any Error>] {
            let ready = waiters.filter { $0.count <= sleepers.count }
            waiters.removeAll { $0.count <= sleepers.count }
            return ready.map(\.continuation)
        }
    }

    /// Thrown by `waitForSleepers(_:timeout:)` when the sleepers did not appear in time.
    public struct SleepersTimeout: Error, CustomStringConvertible {
        /// Sleepers waited for.
        public let expected: Int
        /// Sleepers registered when the time ran out.
        public let registered: Int
        /// The failure, for test output.
        public var description: String { "waited for \(expected) sleepers on the manual clock; \(registered) came" }
    }

    private let state: Mutex<State>

    /// Creates a clock at `start` (wall time) with uptime 0.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Mutex(State(nanoseconds: 0, wall: start))
    }

    /// The manual wall time.
    public var now: Date { state.withLock { $0.wall } }

    /// The manual uptime.
    public var uptimeNanoseconds: UInt64 { state.withLock { $0.nanoseconds } }

    /// How many tasks are waiting in `sleep(for:)` (a cancelled sleep no longer counts).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until `advance` moves the clock past `duration` from now.
    /// - Throws: `CancellationError` when the task is cancelled, before or during the sleep.
    public func sleep(for duration: Duration) async throws {
        let nanos = UInt64(max(0, duration.wholeNanoseconds))
        try await suspend { state, id, continuation in
            if nanos == 0 { return .resume }
            state.sleepers.append(Sleeper(id: id, deadline: state.nanoseconds &+ nanos, continuation: continuation))
            return .wait(waking: state.satisfiedWaiters())
        }
    }

    /// Waits until at least `count` tasks sleep on this clock, so a following `advance` cannot
    /// run before the timer it means to fire exists.
    /// - Parameters:
    ///   - count: the number of sleepers to wait for.
    ///   - timeout: real time after which the wait gives up, so a bug fails instead of hanging.
    ///     Generous: under the full suite on 2 cores, what precedes a sleep (an Argon2id
    ///     registration, a few requests) was seen to take more than 10 s.
    /// - Throws: `SleepersTimeout` when `timeout` passes first; `CancellationError`.
    public func waitForSleepers(_ count: Int, timeout: Duration = .seconds(60)) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.registerWaiter(count) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw SleepersTimeout(expected: count, registered: self.sleeperCount)
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    private func registerWaiter(_ count: Int) async throws {
        try await suspend { state, id, continuation in
            if state.sleepers.count >= count { return .resume }
            state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
            return .wait(waking: [])
        }
    }

    private enum Registration {
        /// Registered; resume these other continuations (waiters the new sleeper satisfies).
        case wait(waking: [CheckedContinuation<Void, any Error>])
        /// Nothing to wait for.
        case resume
    }

    /// Suspends after `register` has stored the continuation under the lock, unless the task is
    /// already cancelled; a cancellation later removes and resumes it. Checking `isCancelled`
    /// under the lock closes the gap: a cancel lands either before registration or after it.
    private func suspend(
        _ register: @escaping @Sendable (inout State, UInt64, CheckedContinuation<Void, any Error>) -> Registration
    ) async throws {
        let id = state.withLock { $0.takeId() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let registration: Registration? = state.withLock { state in
                    Task.isCancelled ? nil : register(&state, id, continuation)
                }
                switch registration {
                case nil: continuation.resume(throwing: CancellationError())
                case .resume: continuation.resume()
                case .wait(let woken): woken.forEach { $0.resume() }
                }
            }
        } onCancel: {
            state.withLock { $0.remove(id) }?.resume(throwing: CancellationError())
        }
    }

    /// Moves both wall time and uptime forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let nanos = UInt64(max(0, duration.wholeNanoseconds))
        let due: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            state.nanoseconds &+= nanos
            state.wall = state.wall.addingTimeInterval(Double(nanos) / 1e9)
            let ready = state.sleepers.filter { $0.deadline <= state.nanoseconds }
            state.sleepers.removeAll { $0.deadline <= state.nanoseconds }
            return ready.map(\.continuation)
        }
        due.forEach { $0.resume() }
    }

    /// Sets wall time without moving uptime (a user changing the device clock).
    public func setWallTime(_ date: Date) {
        state.withLock { $0.wall = date }
    }
}
