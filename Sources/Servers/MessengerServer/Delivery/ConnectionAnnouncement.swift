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

    /// Small JSON: `{"kind":"connected","id":…,"instance":…,"at":…}` or `{"kind":"removed"}`.
    var payload: [UInt8] {
        switch self {
        case .connected(let stamp):
            JSONWriter.encode([
                "kind": "connected", "id": .string(stamp.id), "instance": .string(stamp.instance),
                "at": .int(stamp.connectedAt),
            ])
        case .removed:
            JSONWriter.encode(["kind": "removed"])
        }
    }

    /// The announcement in `payload`, or `nil` for bytes that are none.
    init?(payload: [UInt8]) {
        guard let json = try? JSONParser.parse(payload) else { return nil }
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
