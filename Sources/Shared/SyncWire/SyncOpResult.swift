import CourierCore

/// The server's answer to one operation of a push.
public struct SyncOpResult: Sendable, Hashable {
    /// What happened to the operation.
    public enum Outcome: Sendable, Hashable {
        /// Applied: the record as it now stands on the server.
        case applied(SyncRecord)
        /// The record is no longer at the operation's base version: the server's current record
        /// (`nil` when it no longer exists at all) and the common ancestor, the version the
        /// operation was based on (`nil` when the server no longer keeps it).
        case conflict(current: SyncRecord?, ancestor: SyncRecord?)
        /// Refused for good (invalid, too large, not allowed): retrying it unchanged cannot work.
        case rejected(reason: String)
    }

    /// The operation's id.
    public var opID: String
    /// What happened.
    public var outcome: Outcome

    /// Creates a result.
    public init(opID: String, outcome: Outcome) {
        self.opID = opID
        self.outcome = outcome
    }

    /// The wire form: `{"opID", "status": "applied" | "conflict" | "rejected", …}`.
    public var json: JSONValue {
        switch outcome {
        case .applied(let record):
            return ["opID": .string(opID), "status": "applied", "record": record.json]
        case .conflict(let current, let ancestor):
            return [
                "opID": .string(opID), "status": "conflict", "current": current?.json ?? .null,
                "ancestor": ancestor?.json ?? .null,
            ]
        case .rejected(let reason):
            return ["opID": .string(opID), "status": "rejected", "reason": .string(reason)]
        }
    }

    /// Parses the wire form.
    /// - Throws: `SyncWireError`.
    public init(json: JSONValue) throws(SyncWireError) {
        guard let opID = json["opID"]?.stringValue else { throw SyncWireError("a result needs an opID") }
        switch json["status"]?.stringValue {
        case "applied":
            guard let record = json["record"] else { throw SyncWireError("applied result \(opID) has no record") }
            self.init(opID: opID, outcome: .applied(try SyncRecord(json: record)))
        case "conflict":
            let current = try json["current"].flatMap { value throws(SyncWireError) in
                value.isNull ? nil : try SyncRecord(json: value)
            }
            let ancestor = try json["ancestor"].flatMap { value throws(SyncWireError) in
                value.isNull ? nil : try SyncRecord(json: value)
            }
            self.init(opID: opID, outcome: .conflict(current: current, ancestor: ancestor))
        case "rejected":
            self.init(opID: opID, outcome: .rejected(reason: json["reason"]?.stringValue ?? "rejected"))
        default:
            throw SyncWireError("result \(opID) has an unknown status")
        }
    }
}
