import CourierCore

/// A record as the app sees it: the local truth, including edits not yet on the server.
public struct LocalRecord: Sendable, Hashable {
    /// The record type.
    public var collection: String
    /// The record's id.
    public var id: String
    /// The fields, local edits applied.
    public var fields: [String: JSONValue]
    /// The server version the local content is based on (`0`: never on the server).
    public var version: Int64
    /// Whether local edits wait to be pushed.
    public var isPending: Bool

    /// Creates a record.
    public init(collection: String, id: String, fields: [String: JSONValue], version: Int64, isPending: Bool) {
        self.collection = collection
        self.id = id
        self.fields = fields
        self.version = version
        self.isPending = isPending
    }
}

/// An operation the server refused for good, set aside so it no longer blocks the queue.
public struct DeadLetter: Sendable, Hashable {
    /// The operation's id.
    public var opID: String
    /// The record type.
    public var collection: String
    /// The record's id.
    public var recordID: String
    /// The fields it set (`nil` for a delete).
    public var fields: [String: JSONValue]?
    /// Why the server refused it.
    public var reason: String

    /// Creates a dead letter.
    public init(opID: String, collection: String, recordID: String, fields: [String: JSONValue]?, reason: String) {
        self.opID = opID
        self.collection = collection
        self.recordID = recordID
        self.fields = fields
        self.reason = reason
    }
}

/// A change to the local store, for the UI.
public struct RecordChange: Sendable, Hashable {
    /// Where the change came from.
    public enum Origin: Sendable, Hashable {
        /// A local write by the app.
        case local
        /// A pull from the server.
        case remote
        /// A conflict resolution or a rejected operation's rollback.
        case resolution
    }

    /// The record type.
    public var collection: String
    /// The record's id.
    public var id: String
    /// Whether the record is now deleted.
    public var deleted: Bool
    /// Where it came from.
    public var origin: Origin

    /// Creates a change.
    public init(collection: String, id: String, deleted: Bool, origin: Origin) {
        self.collection = collection
        self.id = id
        self.deleted = deleted
        self.origin = origin
    }
}

/// What became of one pushed operation, so the UI can confirm or roll back optimistic state.
public struct OperationOutcome: Sendable, Hashable {
    /// What happened.
    public enum Result: Sendable, Hashable {
        /// Applied by the server at this version.
        case applied(version: Int64)
        /// Refused for good; the operation is in the dead-letter table.
        case rejected(reason: String)
        /// Based on an old version; resolved by the record type's policy.
        case conflict(ConflictResolution)
    }

    /// The operation's id.
    public var opID: String
    /// The record type.
    public var collection: String
    /// The record's id.
    public var recordID: String
    /// What happened.
    public var result: Result
    /// For `keepBoth`: the id of the new record that holds the local version.
    public var copyID: String?

    /// Creates an outcome.
    public init(opID: String, collection: String, recordID: String, result: Result, copyID: String? = nil) {
        self.opID = opID
        self.collection = collection
        self.recordID = recordID
        self.result = result
        self.copyID = copyID
    }
}
