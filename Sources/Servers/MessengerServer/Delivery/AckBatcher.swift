import Foundation
import Synchronization

/// Acknowledgements from delivery sockets, deleted in batches: the first ack schedules a flush on
/// a queue of its own, and every ack that arrives before it runs joins the same transaction. A
/// device that connects again has its pending acks flushed first, so nothing acked is sent again.
final class AckBatcher: Sendable {
    private let store: any MessengerStore
    private let pending = Mutex<(acks: [AuthenticatedDevice: [Int64]], scheduled: Bool)>(([:], false))
    private let flushing = NSLock()
    private let queue = DispatchQueue(label: "courier.messenger.acks")

    init(store: any MessengerStore) { self.store = store }

    /// Records an ack; it is deleted shortly, with others.
    func acknowledge(_ id: Int64, for device: AuthenticatedDevice) {
        let schedule = pending.withLock { state -> Bool in
            state.acks[device, default: []].append(id)
            defer { state.scheduled = true }
            return !state.scheduled
        }
        if schedule { queue.async { [self] in flush() } }
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
        for (device, ids) in acks {
            _ = try? store.acknowledge(accountId: device.accountId, deviceId: device.deviceId, ids: ids)
        }
    }
}
