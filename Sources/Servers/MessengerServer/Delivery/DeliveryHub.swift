import CourierHTTP
import Synchronization

/// The live sockets of this instance, one per device: the only in-process state of the
/// messenger server. A second connection for a device replaces the first, which is closed with
/// 4409 "connected elsewhere" (Signal-Server's code).
final class DeliveryHub: Sendable {
    private let sessions = Mutex<[AuthenticatedDevice: DeliverySession]>([:])

    /// Registers `session`, closing the one it replaces.
    func register(_ session: DeliverySession) {
        let replaced = sessions.withLock { $0.updateValue(session, forKey: session.device) }
        if let replaced {
            replaced.end()
            replaced.socket.outbound.close(WebSocketCloseCode(rawValue: 4409), reason: "connected elsewhere")
        }
    }

    /// Forgets `session` if it is still the device's.
    func unregister(_ session: DeliverySession) {
        session.end()
        sessions.withLock { sessions in
            if sessions[session.device] === session { sessions[session.device] = nil }
        }
    }

    /// The device's live session here, if any.
    func session(for device: AuthenticatedDevice) -> DeliverySession? {
        sessions.withLock { $0[device] }
    }

    /// Closes a removed device's socket.
    func disconnect(_ device: AuthenticatedDevice) {
        let session = sessions.withLock { $0.removeValue(forKey: device) }
        session?.end()
        session?.socket.outbound.close(WebSocketCloseCode(rawValue: 4401), reason: "device removed")
    }

    /// How many sockets are live.
    var count: Int { sessions.withLock { $0.count } }
}
