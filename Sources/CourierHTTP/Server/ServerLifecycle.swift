import Foundation
import Synchronization

/// Requests in flight and whether the server is draining, for a graceful stop: once draining,
/// new requests are answered 503 with `Connection: close`, and `drain` waits until every request
/// in flight has been answered.
final class ServerLifecycle: Sendable {
    private struct State {
        var inFlight = 0
        var draining = false
        var lastArrival: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Whether the server has begun to stop.
    var isDraining: Bool { state.withLock { $0.draining } }

    /// Requests being read, handled or answered now.
    var inFlight: Int { state.withLock { $0.inFlight } }

    /// A request has arrived.
    func enter() {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock {
            $0.inFlight += 1
            $0.lastArrival = now
        }
    }

    /// A request has been answered.
    func leave() {
        state.withLock { $0.inFlight -= 1 }
    }

    /// Starts draining, then returns once no request is in flight and none has arrived for
    /// `quiet` (clients that were told 503 have gone), or at `deadline`.
    /// - Returns: how many requests were still in flight at the deadline.
    func drain(quiet: Duration, deadline: Duration) -> Int {
        state.withLock { $0.draining = true }
        let start = DispatchTime.now().uptimeNanoseconds
        let quietNanoseconds = UInt64(quiet.wholeNanoseconds)
        let deadlineNanoseconds = UInt64(deadline.wholeNanoseconds)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (inFlight, lastArrival) = state.withLock { ($0.inFlight, $0.lastArrival) }
            if inFlight == 0 && now &- max(lastArrival, start) >= quietNanoseconds { return 0 }
            if now &- start >= deadlineNanoseconds { return inFlight }
            // A stop is rare and short: polling keeps this free of a condition per request.
            usleep(5_000)
        }
    }
}
