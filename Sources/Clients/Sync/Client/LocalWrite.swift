import CourierCore

/// One change in a batch for `SyncClient.write(_:)`.
public enum LocalWrite: Sendable, Hashable {
    /// Sets fields of a record, creating it if absent; a `null` value removes a field.
    case set(collection: String, id: String, fields: [String: JSONValue])
    /// Deletes a record (a tombstone locally and on the server).
    case delete(collection: String, id: String)

    /// The record type.
    public var collection: String {
        switch self {
        case .set(let collection, _, _), .delete(let collection, _): collection
        }
    }

    /// The record's id.
    public var id: String {
        switch self {
        case .set(_, let id, _), .delete(_, let id): id
        }
    }

    /// The fields set, or `nil` for a delete.
    public var fields: [String: JSONValue]? {
        switch self {
        case .set(_, _, let fields): fields
        case .delete: nil
        }
    }
}
