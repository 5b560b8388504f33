import CourierHTTP
import Synchronization

/// The live sockets of this instance, one per device: the only in-process state of the
/// messenger server. Of two sockets for a device the newer (`ConnectionStamp` order) stays and
/// the older is closed with 4409 "connected elsewhere" (Signal-Server's code), whether both are
/// here or the newer is on another instance (`NATSMailboxNotifier` tells).
final class DeliveryHub: Sendable {
    private let sessions = Mutex<[AuthenticatedDevice: DeliverySession]>([:])

    /// Registers `session`, closing whichever of it and the device's current session is older.
    func register(_ session: DeliverySession) {
        let older = sessions.withLock { sessions -> DeliverySession? in
            guard let current = sessions[session.device] else {
                sessions[session.device] = session
                return nil
            }
            if current.connection < session.connection {
                sessions[session.device] = session
                return current
            }
            return session
        }
        older?.close(.connectedElsewhere, reason: "connected elsewhere")
    }

    /// Forgets `session` if it is still the device's.
    func unregister(_ session: DeliverySession) {
        session.end()
        sessions.withLock { sessions in
            if sessions[session.device] === session { sessions[session.device] = nil }
        }
    }

    /// Closes `session` with `code` and forgets it.
    func close(_ session: DeliverySession, _ code: WebSocketCloseCode, reason: String) {
        unregister(session)
        session.close(code, reason: reason)
    }

    /// The device's live session here, if any.
    func session(for device: AuthenticatedDevice) -> DeliverySession? {
        sessions.withLock { $0[device] }
    }

    /// Closes a removed device's socket, if it is here.
    func disconnect(_ device: AuthenticatedDevice) {
        let session = sessions.withLock { $0.removeValue(forKey: device) }
        session?.close(.deviceRemoved, reason: "device removed")
    }

    /// Starts a delivery pass on every live socket: for wake-ups the bus may have lost.
    func wakeAll() {
        for session in sessions.withLock({ Array($0.values) }) { session.wake() }
    }

    /// How many sockets are live.
    var count: Int { sessions.withLock { $0.count } }
}

extension WebSocketCloseCode {
    /// 4409: a newer socket of the device took over, here or on another instance.
    static let connectedElsewhere = WebSocketCloseCode(rawValue: 4409)
    /// 4401: the device was removed.
    static let deviceRemoved = WebSocketCloseCode(rawValue: 4401)
}
