import CourierCore

/// One delivery socket as the instances compare them: the newest by `(connectedAt, id)` keeps
/// the device, on whichever instance it is, and every instance agrees which that is.
struct ConnectionStamp: Sendable, Hashable, Comparable {
    /// Unique across instances: the instance's id and a counter, so sockets of one instance
    /// opened in the same millisecond still sort in the order they opened.
    let id: String
    /// The instance that holds the socket.
    let instance: String
    /// Wall time of the connect, in milliseconds.
    let connectedAt: Int64

    static func < (lhs: ConnectionStamp, rhs: ConnectionStamp) -> Bool {
        (lhs.connectedAt, lhs.id) < (rhs.connectedAt, rhs.id)
    }
}

/// What travels on `conn.<account>.<device>`: a socket opened somewhere, or the device removed.
enum ConnectionAnnouncement: Sendable, Equatable {
    case connected(ConnectionStamp)
    case removed

    /// Small JSON, `{"kind":"connected","account":…,"id":…,"instance":…,"at":…}` or
    /// `{"kind":"removed","account":…}`: the account id itself, as two accounts may share a
    /// subject token (`BusSubject.token`).
    func payload(accountId: String) -> [UInt8] {
        switch self {
        case .connected(let stamp):
            JSONWriter.encode([
                "kind": "connected", "account": .string(accountId), "id": .string(stamp.id),
                "instance": .string(stamp.instance), "at": .int(stamp.connectedAt),
            ])
        case .removed:
            JSONWriter.encode(["kind": "removed", "account": .string(accountId)])
        }
    }

    /// The announcement in `payload`, or `nil` for bytes that are none or that speak of another
    /// account than `accountId`.
    init?(payload: [UInt8], accountId: String) {
        guard let json = try? JSONParser.parse(payload), json["account"]?.stringValue == accountId else { return nil }
        switch json["kind"]?.stringValue {
        case "removed": self = .removed
        case "connected":
            guard let id = json["id"]?.stringValue, let instance = json["instance"]?.stringValue,
                let connectedAt = json["at"]?.intValue
            else { return nil }
            self = .connected(ConnectionStamp(id: id, instance: instance, connectedAt: connectedAt))
        default: return nil
        }
    }
}
