import CourierCore

/// One record as the server holds it: its fields, its server version and whether it is a
/// tombstone. Versions detect conflicts; `hlc` is the hybrid logical time of the write that made
/// this version, used only by the last-writer-wins policy.
public struct SyncRecord: Sendable, Hashable {
    /// The record type, such as `notes`; each type has its own conflict policy on the client.
    public var collection: String
    /// The client-generated id (a UUID), so records can be created offline.
    public var id: String
    /// Incremented by the server on every write; `0` means "never stored".
    public var version: Int64
    /// The fields; empty for a tombstone.
    public var fields: [String: JSONValue]
    /// Whether this is a tombstone (a delete that still has to reach other clients).
    public var deleted: Bool
    /// The hybrid logical time of the write, as `HLCTimestamp.description`.
    public var hlc: String

    /// Creates a record.
    public init(
        collection: String, id: String, version: Int64, fields: [String: JSONValue], deleted: Bool = false,
        hlc: String
    ) {
        self.collection = collection
        self.id = id
        self.version = version
        self.fields = fields
        self.deleted = deleted
        self.hlc = hlc
    }

    /// The wire form: `{"collection", "id", "version", "fields", "deleted", "hlc"}`.
    public var json: JSONValue {
        [
            "collection": .string(collection), "id": .string(id), "version": .int(version),
            "fields": .object(fields), "deleted": .bool(deleted), "hlc": .string(hlc),
        ]
    }

    /// Parses the wire form.
    /// - Throws: `SyncWireError` naming the missing or malformed member.
    public init(json: JSONValue) throws(SyncWireError) {
        guard let collection = json["collection"]?.stringValue, let id = json["id"]?.stringValue else {
            throw SyncWireError("a record needs a collection and an id")
        }
        guard let version = json["version"]?.intValue, version >= 0 else {
            throw SyncWireError("record \(id) has no version")
        }
        guard let fields = json["fields"]?.objectValue else { throw SyncWireError("record \(id) has no fields object") }
        self.init(
            collection: collection, id: id, version: version, fields: fields,
            deleted: json["deleted"]?.boolValue ?? false, hlc: json["hlc"]?.stringValue ?? "")
    }
}
