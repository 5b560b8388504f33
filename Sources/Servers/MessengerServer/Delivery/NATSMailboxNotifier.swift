import CourierCore
import CourierHTTP
import Synchronization

/// The messenger's wake-ups and presence across instances, in NATS subjects over any
/// `MessageBus` (`NATSMessageBus` between instances, `LocalMessageBus` in one process), after
/// Signal-Server's per-device channels:
/// - `mbx.<account>.<device>`: each live socket subscribes; a publish wakes it and is answered,
///   so a sender's request tells "online somewhere" (answered) from "offline everywhere" (no
///   responders, then push);
/// - `conn.<account>.<device>`: each socket announces itself when it opens, and the instance
///   holding an older socket closes it (4409); a removed device is announced there too (4401).
///
/// The bus is at most once: a socket subscribes before it reads its mailbox, so nothing stored
/// before the subscription is missed, and the server's catch-up poll and reconnect handler wake
/// every socket for what a lost publish left behind.
final class NATSMailboxNotifier: Sendable {
    let bus: any MessageBus
    private let hub: DeliveryHub
    /// This instance, as the connection stamps name it.
    let instanceId: String
    private let connections = Atomic<Int>(0)

    init(bus: any MessageBus, hub: DeliveryHub, instanceId: String = Identifier.uuid()) {
        self.bus = bus
        self.hub = hub
        self.instanceId = instanceId
    }

    /// Where "new envelopes" for `device` go.
    static func mailboxSubject(_ device: AuthenticatedDevice) -> String {
        "mbx.\(BusSubject.token(device.accountId)).\(device.deviceId)"
    }

    /// Where `device`'s sockets announce themselves.
    static func connectionSubject(_ device: AuthenticatedDevice) -> String {
        "conn.\(BusSubject.token(device.accountId)).\(device.deviceId)"
    }

    /// A stamp for a socket that opens at `now` (wall milliseconds) on this instance.
    func stamp(now: Int64) -> ConnectionStamp {
        let number = connections.add(1, ordering: .relaxed).newValue
        let digits = String(number)
        let id = instanceId + "-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
        return ConnectionStamp(id: id, instance: instanceId, connectedAt: now)
    }

    /// Subscribes `session` to its device's subjects, then announces it. When this returns,
    /// publishes for the device reach the session: read the mailbox after it, not before.
    /// The subscriptions end with the session.
    /// - Throws: `BusError` when the bus refuses a subscription; the socket still works on
    ///   this instance, woken by the catch-up poll.
    func attach(_ session: DeliverySession) async throws(BusError) {
        // A socket already displaced by a newer one here has nothing to announce.
        guard session.isOpen else { return }
        let device = session.device
        let bus = bus
        let accountId = Array(device.accountId.utf8)
        let mailbox = try await bus.subscribe(Self.mailboxSubject(device)) { message in
            // Another account whose id hashes to the same token is not this device's business.
            guard message.payload == accountId else { return }
            session.wake()
            bus.reply(to: message, [])
        }
        session.hold([mailbox])
        let connection = try await bus.subscribe(Self.connectionSubject(device)) { [self] message in
            announcement(
                ConnectionAnnouncement(payload: message.payload, accountId: device.accountId), reached: session)
        }
        session.hold([connection])
        announce(.connected(session.connection), for: device)
    }

    private func announce(_ announcement: ConnectionAnnouncement, for device: AuthenticatedDevice) {
        bus.publish(Self.connectionSubject(device), announcement.payload(accountId: device.accountId))
    }

    /// Wakes `device`'s socket if this instance holds it, without the bus: most deliveries
    /// stay on one instance and then cost no message. A newer socket that just opened on another
    /// instance, and will displace this one, is not woken: it read the mailbox after it
    /// subscribed, and what arrives in between is read by the catch-up pass or pushed when left
    /// unacknowledged here (the fallbacks of any lost wake-up).
    /// - Returns: whether a socket here was woken.
    func wakeIfHere(_ device: AuthenticatedDevice) -> Bool {
        guard let session = hub.session(for: device), session.isOpen else { return false }
        session.wake()
        return true
    }

    /// Announces new envelopes for `device` and reports who answered: `.answered` when a socket
    /// somewhere holds it, `.noResponders` when none does.
    func mailboxChanged(_ device: AuthenticatedDevice) async -> BusReply {
        await bus.request(Self.mailboxSubject(device), Array(device.accountId.utf8), timeout: Self.presenceTimeout)
    }

    /// How long a send waits for a socket's answer before it pushes anyway. "No responders"
    /// comes back at once when no socket subscribes, so this only bounds a responder that is
    /// slow (an instance under load): long enough that a busy instance's live socket is not also
    /// pushed to, short enough that a stalled one still gets its device a push within seconds.
    static let presenceTimeout: Duration = .seconds(3)

    /// Announces that `device` was removed: the instance holding its socket closes it.
    func deviceRemoved(_ device: AuthenticatedDevice) {
        announce(.removed, for: device)
    }

    /// Another socket of the session's device opened somewhere, or the device was removed.
    private func announcement(_ announcement: ConnectionAnnouncement?, reached session: DeliverySession) {
        guard session.isOpen else { return }
        switch announcement {
        case .removed:
            hub.close(session, .deviceRemoved, reason: "device removed")
        case .connected(let other) where session.connection < other:
            hub.close(session, .connectedElsewhere, reason: "connected elsewhere")
        case .connected(let other) where other < session.connection:
            // The older socket may have subscribed after this one announced itself (two connects
            // at once): say it again, so it learns that it lost.
            announce(.connected(session.connection), for: session.device)
        case .connected, nil:
            return
        }
    }
}
