import Foundation
import Synchronization

/// Requests in flight and whether the server is draining, for a graceful stop: once draining,
/// new requests are answered 503 with `Connection: close`, and `drain` waits until every request
/// in flight has been answered.
///
/// The drain waits on events, not on a polling loop: the last request to leave wakes it, and the
/// only timers are the quiet period and the deadline.
final class ServerLifecycle: Sendable {
    // Atomics rather than a lock on the request path: every request enters and leaves, and every
    // answer asks whether the server is draining. `inFlightCount` and `draining` are sequentially
    // consistent, so a request leaving while the drain starts either sees `draining` (and wakes
    // the drain) or the drain sees it gone.
    private let inFlightCount = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    private let lastArrival = Atomic<UInt64>(0)
    /// Who waits for the last request in flight to leave.
    private let idleWaiters = Mutex<[UInt64: @Sendable () -> Void]>([:])
    private let nextWaiter = Atomic<UInt64>(0)

    /// Whether the server has begun to stop.
    var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    /// Requests being read, handled or answered now.
    var inFlight: Int { inFlightCount.load(ordering: .sequentiallyConsistent) }

    /// A request has arrived.
    func enter() {
        inFlightCount.add(1, ordering: .sequentiallyConsistent)
        lastArrival.store(DispatchTime.now().uptimeNanoseconds, ordering: .releasing)
    }

    /// A request has been answered.
    func leave() {
        let left = inFlightCount.subtract(1, ordering: .sequentiallyConsistent).newValue
        if left == 0 && draining.load(ordering: .sequentiallyConsistent) { wakeIdleWaiters() }
    }

    private func wakeIdleWaiters() {
        let waiters = idleWaiters.withLock { waiters in
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
        waiters.forEach { $0() }
    }

    /// Calls `wake` (at once, or from the request that leaves last) once no request is in
    /// flight; `cancelIdleWait(_:)` with the returned id withdraws it.
    private func onIdle(_ wake: @escaping @Sendable () -> Void) -> UInt64 {
        let id = nextWaiter.add(1, ordering: .relaxed).newValue
        let idleNow = idleWaiters.withLock { waiters -> Bool in
            if inFlight == 0 { return true }
            waiters[id] = wake
            return false
        }
        if idleNow { wake() }
        return id
    }

    private func cancelIdleWait(_ id: UInt64) -> (@Sendable () -> Void)? {
        idleWaiters.withLock { $0.removeValue(forKey: id) }
    }

    /// What a drain does next, decided from the counters and the time (monotonic nanoseconds).
    enum DrainStep: Equatable {
        /// Done: this many requests were still in flight (0 after a clean drain).
        case finished(unanswered: Int)
        /// Wait until no request is in flight, or until `deadline`.
        case waitForIdle(until: UInt64)
        /// Wait until `time` passes (the end of the quiet period), then decide again.
        case waitUntil(UInt64)
    }

    /// The drain's next step: finished when nothing is in flight and nothing has arrived for
    /// `quiet` (clients that were told 503 have gone), or at the deadline.
    static func drainStep(
        now: UInt64, start: UInt64, deadline: UInt64, quiet: UInt64, inFlight: Int, lastArrival: UInt64
    ) -> DrainStep {
        if inFlight > 0 {
            return now >= deadline ? .finished(unanswered: inFlight) : .waitForIdle(until: deadline)
        }
        let quietEnd = max(lastArrival, start) &+ quiet
        if now >= quietEnd { return .finished(unanswered: 0) }
        if now >= deadline { return .finished(unanswered: 0) }
        return .waitUntil(min(quietEnd, deadline))
    }

    private func beginDrain(quiet: Duration, deadline: Duration) -> (start: UInt64, deadline: UInt64, quiet: UInt64) {
        draining.store(true, ordering: .sequentiallyConsistent)
        let start = DispatchTime.now().uptimeNanoseconds
        return (start, start &+ UInt64(max(0, deadline.wholeNanoseconds)), UInt64(max(0, quiet.wholeNanoseconds)))
    }

    private func nextStep(start: UInt64, deadline: UInt64, quiet: UInt64) -> DrainStep {
        Self.drainStep(
            now: DispatchTime.now().uptimeNanoseconds, start: start, deadline: deadline, quiet: quiet,
            inFlight: inFlight, lastArrival: lastArrival.load(ordering: .acquiring))
    }

    /// Starts draining, then returns once no request is in flight and none has arrived for
    /// `quiet`, or at `deadline`, blocking the calling thread meanwhile.
    /// - Returns: how many requests were still in flight at the deadline.
    func drain(quiet: Duration, deadline: Duration) -> Int {
        let (start, end, quietNanoseconds) = beginDrain(quiet: quiet, deadline: deadline)
        while true {
            switch nextStep(start: start, deadline: end, quiet: quietNanoseconds) {
            case .finished(let unanswered):
                return unanswered
            case .waitForIdle(let until):
                let idle = DispatchSemaphore(value: 0)
                let id = onIdle { idle.signal() }
                if idle.wait(timeout: DispatchTime(uptimeNanoseconds: until)) == .timedOut {
                    _ = cancelIdleWait(id)
                }
            case .waitUntil(let time):
                // The end of the quiet period: a timer, not a poll.
                _ = DispatchSemaphore(value: 0).wait(timeout: DispatchTime(uptimeNanoseconds: time))
            }
        }
    }

    /// Starts draining, then returns once no request is in flight and none has arrived for
    /// `quiet`, or at `deadline`; suspends (holding no thread) meanwhile. Cancelling the task
    /// ends the wait early.
    /// - Returns: how many requests were still in flight when it returned.
    func drain(quiet: Duration, deadline: Duration) async -> Int {
        let (start, end, quietNanoseconds) = beginDrain(quiet: quiet, deadline: deadline)
        while !Task.isCancelled {
            switch nextStep(start: start, deadline: end, quiet: quietNanoseconds) {
            case .finished(let unanswered):
                return unanswered
            case .waitForIdle(let until):
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await self.waitForIdle() }
                    group.addTask { try? await Self.sleep(until: until) }
                    await group.next()
                    group.cancelAll()
                }
            case .waitUntil(let time):
                try? await Self.sleep(until: time)
            }
        }
        return inFlight
    }

    /// Suspends until no request is in flight (or the task is cancelled).
    private func waitForIdle() async {
        let id = Mutex<UInt64?>(nil)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The wake-up is called once: by whoever takes it out of `idleWaiters` (the last
                // request leaving, or the cancellation), or at once when nothing is in flight.
                id.withLock { $0 = onIdle { continuation.resume() } }
                if Task.isCancelled, let registered = id.withLock({ $0 }), let wake = cancelIdleWait(registered) {
                    wake()
                }
            }
        } onCancel: {
            if let registered = id.withLock({ $0 }), let wake = cancelIdleWait(registered) { wake() }
        }
    }

    private static func sleep(until uptime: UInt64) async throws {
        let now = DispatchTime.now().uptimeNanoseconds
        guard uptime > now else { return }
        try await Task.sleep(for: .nanoseconds(Int64(clamping: uptime - now)))
    }
}
