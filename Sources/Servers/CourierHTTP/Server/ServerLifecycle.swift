import Foundation
import Synchronization

/// Requests in flight and whether the server is draining, for a graceful stop: once draining,
/// new requests are answered 503 with `Connection: close`, and `drain` waits until every request
/// in flight has been answered.
final class ServerLifecycle: Sendable {
    // Atomics rather than a lock: every request enters and leaves, and every answer asks
    // whether the server is draining.
    private let inFlightCount = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    private let lastArrival = Atomic<UInt64>(0)

    /// Whether the server has begun to stop.
    var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Requests being read, handled or answered now.
    var inFlight: Int { inFlightCount.load(ordering: .acquiring) }

    /// A request has arrived.
    func enter() {
        inFlightCount.add(1, ordering: .acquiringAndReleasing)
        lastArrival.store(DispatchTime.now().uptimeNanoseconds, ordering: .releasing)
    }

    /// A request has been answered.
    func leave() {
        inFlightCount.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// Starts draining, then returns once no request is in flight and none has arrived for
    /// `quiet` (clients that were told 503 have gone), or at `deadline`.
    /// - Returns: how many requests were still in flight at the deadline.
    func drain(quiet: Duration, deadline: Duration) -> Int {
        draining.store(true, ordering: .releasing)
        let start = DispatchTime.now().uptimeNanoseconds
        let quietNanoseconds = UInt64(quiet.wholeNanoseconds)
        let deadlineNanoseconds = UInt64(deadline.wholeNanoseconds)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let inFlight = self.inFlight
            let lastArrival = self.lastArrival.load(ordering: .acquiring)
            if inFlight == 0 && now &- max(lastArrival, start) >= quietNanoseconds { return 0 }
            if now &- start >= deadlineNanoseconds { return inFlight }
            // A stop is rare and short: polling keeps this free of a condition per request.
            usleep(5_000)
        }
    }
}
