import CourierCore

/// A message that passed validation, ready to be stored.
public struct PreparedMessage: Sendable {
    /// The project.
    public let writeKey: String
    /// The client's id for the message, the dedupe key.
    public let messageId: String
    /// `track`, `identify`, …
    public let type: String
    /// When the collector received it, in milliseconds since 1970.
    public let receivedAt: Int64
    /// The message as stored: merged context, corrected `timestamp`, `receivedAt`.
    public let payload: [UInt8]

    /// Creates a prepared message.
    public init(writeKey: String, messageId: String, type: String, receivedAt: Int64, payload: [UInt8]) {
        self.writeKey = writeKey
        self.messageId = messageId
        self.type = type
        self.receivedAt = receivedAt
        self.payload = payload
    }
}

/// What a commit did with one batch.
public struct CommitOutcome: Sendable, Equatable {
    /// Messages stored.
    public var stored: Int
    /// Messages skipped because their `messageId` was seen within the dedupe window.
    public var duplicates: Int

    /// Creates an outcome.
    public init(stored: Int, duplicates: Int) {
        self.stored = stored
        self.duplicates = duplicates
    }
}

/// A stored event as the read API returns it.
public struct StoredEvent: Sendable, Equatable {
    /// The store's sequence number, the pagination cursor.
    public let id: Int64
    /// The stored message.
    public let payload: JSONValue
}

/// A page of events with the cursor of the next one.
public struct EventPage: Sendable, Equatable {
    /// Events in arrival order.
    public let events: [StoredEvent]
    /// Pass as `after` to read on; `nil` when this page is the last for now.
    public let nextCursor: Int64?
}

/// Where the collector keeps projects, events and the dedupe memory.
public protocol EventStore: Sendable {
    /// Stores several batches in one transaction (group commit), skipping `messageId`s seen since
    /// `dedupeCutoff` (milliseconds). Returns one outcome per batch, in order.
    /// - Throws: `CollectorError` (`storageUnavailable`) when the commit fails; nothing is stored.
    func commit(_ batches: [[PreparedMessage]], dedupeCutoff: Int64) throws(CollectorError) -> [CommitOutcome]
    /// Events of a project after the cursor `after`, oldest first.
    /// - Throws: `CollectorError`.
    func events(writeKey: String, after: Int64, limit: Int) throws(CollectorError) -> EventPage
    /// Forgets `messageId`s seen before `cutoff`. Returns how many were forgotten.
    /// - Throws: `CollectorError`.
    func pruneSeenMessages(before cutoff: Int64) throws(CollectorError) -> Int
    /// A project's settings, or `nil` if the write key is unknown.
    /// - Throws: `CollectorError`.
    func settings(writeKey: String) throws(CollectorError) -> ProjectSettings?
    /// Creates or replaces a project's settings.
    /// - Throws: `CollectorError`.
    func saveSettings(_ settings: ProjectSettings, writeKey: String) throws(CollectorError)
    /// Reads, changes and writes a project's settings in one transaction (the project is created
    /// with defaults if new). Returns the new settings.
    /// - Throws: `CollectorError` from `change` or the store.
    func updateSettings(writeKey: String, _ change: (ProjectSettings) throws(CollectorError) -> ProjectSettings)
        throws(CollectorError) -> ProjectSettings
    /// Creates a project with default settings unless it exists.
    /// - Throws: `CollectorError`.
    func registerProject(writeKey: String) throws(CollectorError)
}
