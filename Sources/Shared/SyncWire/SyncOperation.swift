import CourierCore

/// One entry of a client's oplog as it travels to the server: set some fields of a record, or
/// delete it, if the record is still at `baseVersion`.
///
/// Operations are idempotent: a set names the values, never a change to them (no `increment`),
/// and the server answers a repeated `id` with the result it gave the first time.
public struct SyncOperation: Sendable, Hashable {
    /// What the operation does.
    public enum Kind: Sendable, Hashable {
        /// Sets these fields (a `null` value removes the field); other fields keep their values.
        case set([String: JSONValue])
        /// Turns the record into a tombstone.
        case delete
    }

    /// The operation's id (a UUID): the idempotency key.
    public var id: String
    /// The client's oplog position: increases with every operation the client makes, and the
    /// server remembers the last one it processed per client (Replicache's `lastMutationID`).
    public var sequence: Int64
    /// The record type.
    public var collection: String
    /// The record's id.
    public var recordID: String
    /// Set or delete.
    public var kind: Kind
    /// The server version the client based the change on (`If-Match`); `0` creates.
    public var baseVersion: Int64
    /// The hybrid logical time of the local write.
    public var hlc: String

    /// Creates an operation.
    public init(
        id: String, sequence: Int64, collection: String, recordID: String, kind: Kind, baseVersion: Int64,
        hlc: String
    ) {
        self.id = id
        self.sequence = sequence
        self.collection = collection
        self.recordID = recordID
        self.kind = kind
        self.baseVersion = baseVersion
        self.hlc = hlc
    }

    /// The wire form.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "sequence": .int(sequence), "collection": .string(collection),
            "recordID": .string(recordID), "baseVersion": .int(baseVersion), "hlc": .string(hlc),
        ]
        switch kind {
        case .set(let fields):
            object["op"] = "set"
            object["fields"] = .object(fields)
        case .delete:
            object["op"] = "delete"
        }
        return .object(object)
    }

    /// Parses the wire form.
    /// - Throws: `SyncWireError` naming what is missing or malformed.
    public init(json: JSONValue) throws(SyncWireError) {
        guard let id = json["id"]?.stringValue, !id.isEmpty else { throw SyncWireError("an operation needs an id") }
        guard let sequence = json["sequence"]?.intValue, sequence > 0 else {
            throw SyncWireError("operation \(id) needs a positive sequence")
        }
        guard let collection = json["collection"]?.stringValue, let recordID = json["recordID"]?.stringValue else {
            throw SyncWireError("operation \(id) needs a collection and a recordID")
        }
        guard let baseVersion = json["baseVersion"]?.intValue, baseVersion >= 0 else {
            throw SyncWireError("operation \(id) needs a baseVersion ≥ 0")
        }
        let kind: Kind
        switch json["op"]?.stringValue {
        case "set":
            guard let fields = json["fields"]?.objectValue else {
                throw SyncWireError("set operation \(id) needs a fields object")
            }
            kind = .set(fields)
        case "delete":
            kind = .delete
        default:
            throw SyncWireError("operation \(id): op is \"set\" or \"delete\"")
        }
        self.init(
            id: id, sequence: sequence, collection: collection, recordID: recordID, kind: kind,
            baseVersion: baseVersion, hlc: json["hlc"]?.stringValue ?? "")
    }
}
