import CourierCore
import Synchronization

/// Decides when a device gets a push: when an envelope is queued for it and it has no live
/// socket here, at most once per coalescing interval until it connects again. A push the
/// service refuses as unregistered removes the device's endpoint.
final class PushScheduler: Sendable {
    private let senders: [PushEndpoint.Kind: any PushSender]
    private let store: any MessengerStore
    private let storeQueues: BlockingQueues
    private let clock: any Clock
    private let intervalNanoseconds: UInt64
    private let lastPushed = Mutex<[AuthenticatedDevice: UInt64]>([:])
    let sent = Atomic<Int>(0)
    let coalesced = Atomic<Int>(0)
    let failed = Atomic<Int>(0)

    init(
        senders: [PushEndpoint.Kind: any PushSender], store: any MessengerStore, storeQueues: BlockingQueues,
        clock: any Clock, intervalMilliseconds: Int64
    ) {
        self.senders = senders
        self.store = store
        self.storeQueues = storeQueues
        self.clock = clock
        intervalNanoseconds = UInt64(max(intervalMilliseconds, 0)) * 1_000_000
    }

    /// An envelope was queued for `device`, which has no live socket here.
    func envelopeQueued(for device: AuthenticatedDevice, endpoint: PushEndpoint) {
        guard let sender = senders[endpoint.kind] else { return }
        let now = clock.uptimeNanoseconds
        let due = lastPushed.withLock { pushed -> Bool in
            if let last = pushed[device], now &- last < intervalNanoseconds { return false }
            pushed[device] = now
            return true
        }
        guard due else {
            coalesced.add(1, ordering: .relaxed)
            return
        }
        let (store, storeQueues) = (store, storeQueues)
        Task {
            let result = await sender.send(PushNotification(collapseId: "mailbox"), to: endpoint)
            switch result {
            case .sent: sent.add(1, ordering: .relaxed)
            case .unregistered:
                failed.add(1, ordering: .relaxed)
                storeQueues.detach {
                    let current = try? store.device(accountId: device.accountId, deviceId: device.deviceId)
                    if current?.push == endpoint {
                        try? store.setPushEndpoint(nil, accountId: device.accountId, deviceId: device.deviceId)
                    }
                }
            case .failed: failed.add(1, ordering: .relaxed)
            }
        }
    }

    /// The device connected: its next offline envelope pushes at once.
    func connected(_ device: AuthenticatedDevice) {
        _ = lastPushed.withLock { $0.removeValue(forKey: device) }
    }
}
