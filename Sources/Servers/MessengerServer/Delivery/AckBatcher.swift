import CourierCore
import Foundation
import Synchronization

/// Acknowledgements from delivery sockets, deleted in batches: the first ack schedules a flush
/// `interval` later on a queue of its own, and every ack that arrives before it runs joins the
/// same transaction. A device that connects again has its pending acks flushed first, so nothing
/// acked is sent again.
final class AckBatcher: Sendable {
    private let store: any MessengerStore
    private let pending = Mutex<(acks: [AuthenticatedDevice: [Int64]], scheduled: Bool)>(([:], false))
    private let flushing = NSLock()
    private let queue = DispatchQueue(label: "courier.messenger.acks")
    private let intervalNanoseconds: Int
    private let transactions = Atomic<Int>(0)

    /// Deletes acks `interval` after the first of a batch arrives (zero: as soon as the queue
    /// gets to it). The timer is real time, not the server's clock: this is scheduling.
    init(store: any MessengerStore, interval: Duration = .zero) {
        self.store = store
        // At most a day: longer would only hold acks in memory.
        intervalNanoseconds = Int(max(0, min(interval, .seconds(86_400)).wholeNanoseconds))
    }

    /// Flushes whose delete succeeded so far (one transaction each, on stores that batch), for
    /// tests and benchmarks.
    var flushes: Int { transactions.load(ordering: .relaxed) }

    /// Records an ack; it is deleted shortly, with others.
    func acknowledge(_ id: Int64, for device: AuthenticatedDevice) {
        let schedule = pending.withLock { state -> Bool in
            state.acks[device, default: []].append(id)
            defer { state.scheduled = true }
            return !state.scheduled
        }
        guard schedule else { return }
        if intervalNanoseconds == 0 {
            queue.async { [self] in flush() }
        } else {
            queue.asyncAfter(deadline: .now() + .nanoseconds(intervalNanoseconds)) { [self] in flush() }
        }
    }

    /// Deletes every pending ack now, on the caller's thread.
    func flush() {
        flushing.lock()
        defer { flushing.unlock() }
        let acks = pending.withLock { state -> [AuthenticatedDevice: [Int64]] in
            defer {
                state.acks = [:]
                state.scheduled = false
            }
            return state.acks
        }
        guard !acks.isEmpty else { return }
        // A failed delete drops the batch: those envelopes are sent again, as after a crash.
        let deleted = try? store.acknowledge(
            acks.map { (accountId: $0.key.accountId, deviceId: $0.key.deviceId, ids: $0.value) })
        if deleted != nil { transactions.add(1, ordering: .relaxed) }
    }
}
