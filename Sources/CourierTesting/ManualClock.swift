import CourierCore
import Foundation
import Synchronization

/// A clock that moves only when a test calls `advance(by:)`; sleepers wake when their deadline is
/// reached.
public final class ManualClock: Clock {
    private struct State {
        var nanoseconds: UInt64
        var wall: Date
        var sleepers: [(deadline: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
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

    /// How many tasks are waiting in `sleep(for:)`.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until `advance` moves the clock past `duration` from now.
    public func sleep(for duration: Duration) async throws {
        let nanos = UInt64(max(0, duration.wholeNanoseconds))
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let resumeNow: Bool = state.withLock { state in
                if nanos == 0 { return true }
                state.sleepers.append((state.nanoseconds + nanos, continuation))
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Moves both wall time and uptime forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let nanos = UInt64(max(0, duration.wholeNanoseconds))
        let due: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            state.nanoseconds += nanos
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
