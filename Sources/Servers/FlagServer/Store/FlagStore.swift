import CourierCore

/// An environment's stored definitions.
public struct StoredEnvironment: Sendable, Equatable {
    /// Grows by one with every change.
    public var version: Int64
    /// Flag definitions, by key order.
    public var flags: [JSONValue]
    /// Segment definitions, by key order.
    public var segments: [JSONValue]

    /// Creates one.
    public init(version: Int64, flags: [JSONValue], segments: [JSONValue]) {
        self.version = version
        self.flags = flags
        self.segments = segments
    }
}

/// One change to an environment, stored with its audit row.
public struct FlagChange: Sendable, Equatable {
    /// What is changed.
    public enum Subject: String, Sendable {
        /// A flag definition.
        case flag
        /// A segment definition.
        case segment
    }

    /// Flag or segment.
    public var subject: Subject
    /// Its key.
    public var key: String
    /// `set` or `kill`.
    public var action: String
    /// The new definition (already validated).
    public var definition: JSONValue
    /// Who made it, as the audit shows it: `console` for a console session, `admin-api` for the
    /// admin token (`FlagService.actor(of:)`).
    public var actor: String

    /// Creates a change.
    public init(subject: Subject, key: String, action: String, definition: JSONValue, actor: String = "admin-api") {
        self.subject = subject
        self.key = key
        self.action = action
        self.definition = definition
        self.actor = actor
    }
}

/// One audit row: every change is kept.
public struct FlagAuditEntry: Sendable, Equatable {
    /// Grows with each row.
    public var id: Int64
    /// The environment.
    public var environment: String
    /// `flag` or `segment`.
    public var subject: String
    /// The key changed.
    public var key: String
    /// `set` or `kill`.
    public var action: String
    /// The definition before, `nil` when new.
    public var before: JSONValue?
    /// The definition after.
    public var after: JSONValue
    /// The environment's version after the change.
    public var version: Int64
    /// When, in milliseconds since 1970.
    public var atMilliseconds: Int64
    /// Who made the change (`console`, `admin-api`); `nil` for rows stored before actors were kept.
    public var actor: String?

    /// Creates an audit row (stores build these from their rows).
    public init(
        id: Int64, environment: String, subject: String, key: String, action: String, before: JSONValue?,
        after: JSONValue, version: Int64, atMilliseconds: Int64, actor: String? = nil
    ) {
        self.id = id
        self.environment = environment
        self.subject = subject
        self.key = key
        self.action = action
        self.before = before
        self.after = after
        self.version = version
        self.atMilliseconds = atMilliseconds
        self.actor = actor
    }

    /// The JSON form the audit route answers.
    public var json: JSONValue {
        [
            "id": .int(id), "environment": .string(environment), "subject": .string(subject), "key": .string(key),
            "action": .string(action), "before": before ?? .null, "after": after, "version": .int(version),
            "at": .string(Timestamp.format(milliseconds: atMilliseconds)),
            "actor": actor.map(JSONValue.string) ?? .null,
        ]
    }
}

/// Where flag definitions live: one seam, SQLite by default.
public protocol FlagStore: Sendable {
    /// The environment's definitions, or `nil` when it has none.
    /// - Throws: when the store fails.
    func environment(_ key: String) throws -> StoredEnvironment?
    /// Reads the environment as stored (empty at version 0 when it has none), makes a change from
    /// it with `make`, and stores the change with its audit row, all in one transaction that
    /// holds every other edit of the environment back, from this instance or any other, until it
    /// commits: no edit can land between the read and the write and be written over.
    /// - Parameter make: derives the change (and validates the environment with it); when it
    ///   throws, nothing is stored and its error is rethrown. It runs inside the transaction,
    ///   holding the environment: it must be quick and must not use this store.
    /// - Returns: the environment's new version and the change made.
    /// - Throws: what `make` throws, or the store's error.
    func edit(
        _ environment: String, atMilliseconds: Int64, making make: (StoredEnvironment) throws -> FlagChange
    ) throws -> (version: Int64, change: FlagChange)
    /// The newest audit rows first.
    /// - Throws: when the store fails.
    func audit(environment: String, limit: Int) throws -> [FlagAuditEntry]
    /// Every environment's current version, in one cheap read: how an instance notices an edit
    /// made by another whose wake-up it missed.
    /// - Throws: when the store fails.
    func versions() throws -> [String: Int64]
}

extension FlagStore {
    /// Stores `change` and its audit row in one transaction, whatever the environment holds.
    /// - Returns: the environment's new version.
    /// - Throws: the store's error.
    public func apply(_ change: FlagChange, environment: String, atMilliseconds: Int64) throws -> Int64 {
        try edit(environment, atMilliseconds: atMilliseconds) { _ in change }.version
    }
}
