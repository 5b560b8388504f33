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
    /// The hash the in-memory dedupe index files the message under (`SeenMessageIndex.key`),
    /// computed where the message is prepared, on the request's thread, so the one thread that
    /// commits does not hash every message.
    let dedupeHash: UInt64

    /// Creates a prepared message.
    public init(writeKey: String, messageId: String, type: String, receivedAt: Int64, payload: [UInt8]) {
        self.writeKey = writeKey
        self.messageId = messageId
        self.type = type
        self.receivedAt = receivedAt
        self.payload = payload
        dedupeHash = SeenMessageIndex.key(writeKey: writeKey, messageId: messageId)
    }
}

/// What a commit did with one batch.
public struct CommitOutcome: Sendable, Equatable {
    /// Messages stored.
    public var stored: Int
    /// Messages skipped because their `messageId` was seen within the dedupe window.
    public var duplicates: Int
    /// Payload bytes of the stored messages (what counts against storage quotas).
    public var storedBytes: Int

    /// Creates an outcome.
    public init(stored: Int, duplicates: Int, storedBytes: Int = 0) {
        self.stored = stored
        self.duplicates = duplicates
        self.storedBytes = storedBytes
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

/// Where the collector keeps projects, events and the dedupe memory. Every method throws
/// `EventStoreError` (storage terms); the collector decides what a client is told.
public protocol EventStore: Sendable {
    /// Stores several batches in one transaction (group commit), skipping `messageId`s seen since
    /// `dedupeCutoff` (milliseconds), and adds each project's stored bytes to its usage. Returns
    /// one outcome per batch, in order.
    /// - Throws: `EventStoreError` when the commit fails; nothing is stored.
    func commit(_ batches: [[PreparedMessage]], dedupeCutoff: Int64) throws(EventStoreError) -> [CommitOutcome]
    /// Events of a project after the cursor `after`, oldest first.
    /// - Throws: `EventStoreError`.
    func events(writeKey: String, after: Int64, limit: Int) throws(EventStoreError) -> EventPage
    /// Frees the dedupe memory of `messageId`s seen before `cutoff`. A store may keep some a
    /// little longer (whole partitions are dropped); whether a message is a duplicate is decided
    /// by `commit`'s cutoff either way. Returns how many were forgotten.
    /// - Throws: `EventStoreError`.
    func pruneSeenMessages(before cutoff: Int64) throws(EventStoreError) -> Int
    /// A project's settings, or `nil` if the write key is unknown.
    /// - Throws: `EventStoreError`.
    func settings(writeKey: String) throws(EventStoreError) -> ProjectSettings?
    /// Creates or replaces a project's settings.
    /// - Throws: `EventStoreError`.
    func saveSettings(_ settings: ProjectSettings, writeKey: String) throws(EventStoreError)
    /// Reads, changes and writes a project's settings in one transaction (the project is created
    /// with defaults if new). Returns the new settings.
    /// - Throws: what `change` throws (nothing is written then), or `EventStoreError`.
    func updateSettings(writeKey: String, _ change: (ProjectSettings) throws -> ProjectSettings) throws
        -> ProjectSettings
    /// Creates a project with default settings unless it exists.
    /// - Throws: `EventStoreError`.
    func registerProject(writeKey: String) throws(EventStoreError)
    /// Payload bytes stored per project, for storage quotas.
    /// - Throws: `EventStoreError`.
    func usage() throws(EventStoreError) -> [String: Int64]
    /// The id of a project's newest event (0 when it has none): where a live stream starts.
    /// - Throws: `EventStoreError`.
    func latestEventID(writeKey: String) throws(EventStoreError) -> Int64
    /// A project's newest `limit` events, oldest first: what a live stream opened without a cursor
    /// shows before the events that commit after it.
    /// - Throws: `EventStoreError`.
    func recentEvents(writeKey: String, limit: Int) throws(EventStoreError) -> [StoredEvent]
}

extension EventStore {
    /// Pages through the project's events to the last one; stores with an index override it.
    public func latestEventID(writeKey: String) throws(EventStoreError) -> Int64 {
        var cursor: Int64 = 0
        while true {
            let page = try events(writeKey: writeKey, after: cursor, limit: 1000)
            cursor = page.events.last?.id ?? cursor
            if page.nextCursor == nil { return cursor }
        }
    }

    /// Pages through the project's events, keeping the last `limit`; stores with an index override it.
    public func recentEvents(writeKey: String, limit: Int) throws(EventStoreError) -> [StoredEvent] {
        guard limit > 0 else { return [] }
        var kept: [StoredEvent] = []
        var cursor: Int64 = 0
        while true {
            let page = try events(writeKey: writeKey, after: cursor, limit: 1000)
            kept = Array((kept + page.events).suffix(limit))
            cursor = page.events.last?.id ?? cursor
            if page.nextCursor == nil { return kept }
        }
    }
}
