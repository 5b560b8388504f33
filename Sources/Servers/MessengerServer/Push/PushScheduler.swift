import CourierCore
import Synchronization

/// Decides when a device gets a push: when an envelope is queued for it and no socket answered
/// for it on any instance, at most once per coalescing interval until it connects again. The
/// interval is kept on the device's row (`MessengerStore.claimPush`), so instances sharing the
/// store push once between them. A push the service refuses as unregistered removes the
/// device's endpoint.
final class PushScheduler: Sendable {
    private let senders: [PushEndpoint.Kind: any PushSender]
    private let store: any MessengerStore
    private let storeQueues: BlockingQueues
    private let clock: any Clock
    private let intervalMilliseconds: Int64
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
        self.intervalMilliseconds = max(intervalMilliseconds, 0)
    }

    /// An envelope waits for `device`, which no socket answered for: pushes to `endpoint` unless
    /// a push went to the device within the interval. Blocks for the claim on the device's row:
    /// call it on `storeQueues`.
    func envelopeQueued(for device: AuthenticatedDevice, endpoint: PushEndpoint) {
        guard let sender = senders[endpoint.kind] else { return }
        let claimed: Bool
        do {
            claimed = try store.claimPush(
                accountId: device.accountId, deviceId: device.deviceId, now: clock.nowMilliseconds,
                intervalMilliseconds: intervalMilliseconds)
        } catch {
            // The store cannot say whether a push went out: none now; the next envelope or the
            // unacked watch asks again.
            failed.add(1, ordering: .relaxed)
            return
        }
        guard claimed else {
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
            case .notAttempted:
                // No push went out: the claim would hold back this device's pushes for the
                // interval. Counted once it is given back.
                storeQueues.detach { [self] in
                    try? store.clearPushClaim(accountId: device.accountId, deviceId: device.deviceId)
                    failed.add(1, ordering: .relaxed)
                }
            }
        }
    }

    /// The device connected: its next offline envelope pushes at once. Blocks: call it on
    /// `storeQueues`.
    func connected(_ device: AuthenticatedDevice) {
        try? store.clearPushClaim(accountId: device.accountId, deviceId: device.deviceId)
    }
}
