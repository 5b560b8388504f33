import CourierCore
import Synchronization

/// What the bus answered when a send asked whether a socket somewhere holds a device: the
/// share of sends that reached a live socket, and how often the bus failed to tell.
final class PresenceCounters: Sendable {
    /// Prometheus labels, in the order of `counts`.
    private static let results = ["answered", "no_responders", "timed_out", "unavailable", "here"]
    private let counts = Mutex([0, 0, 0, 0, 0])

    /// Counts one answer.
    func record(_ reply: BusReply) {
        let index =
            switch reply {
            case .answered: 0
            case .noResponders: 1
            case .timedOut: 2
            case .unavailable: 3
            }
        counts.withLock { $0[index] += 1 }
    }

    /// Counts a device whose socket was on this instance: woken without asking the bus.
    func recordLocal() {
        counts.withLock { $0[4] += 1 }
    }

    /// The counters in Prometheus text format.
    var metricsText: String {
        let counts = counts.withLock { $0 }
        return """
            # HELP courier_messenger_presence_checks_total Sends' questions on the bus whether a socket holds the device, by answer.
            # TYPE courier_messenger_presence_checks_total counter

            """
                + zip(Self.results, counts).map { "courier_messenger_presence_checks_total{result=\"\($0)\"} \($1)\n" }
                .joined()
    }
}
