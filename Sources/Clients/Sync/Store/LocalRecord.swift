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
}
