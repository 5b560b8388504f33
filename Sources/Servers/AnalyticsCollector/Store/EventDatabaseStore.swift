import CourierCore

/// An event store on one of the engines: it says how it opens a write transaction, reads, and
/// runs a single write (`SQLDatabaseStore`), and gets the project and page methods of `EventStore`, written once in
/// `EventStoreSQL`, here. Commits, dedupe and the newest id stay each engine's own.
protocol EventDatabaseStore: EventStore, SQLDatabaseStore {}

extension EventDatabaseStore {
    /// Reads a page of a project's events.
    public func events(writeKey: String, after: Int64, limit: Int) throws(EventStoreError) -> EventPage {
        try storing {
            try reading { db in try EventStoreSQL.events(writeKey: writeKey, after: after, limit: limit, in: db) }
        }
    }

    /// Reads a project's newest events backwards along its `(write_key, id)` index.
    public func recentEvents(writeKey: String, limit: Int) throws(EventStoreError) -> [StoredEvent] {
        guard limit > 0 else { return [] }
        return try storing {
            try reading { db in try EventStoreSQL.recentEvents(writeKey: writeKey, limit: limit, in: db) }
        }
    }

    /// Reads a project's settings.
    public func settings(writeKey: String) throws(EventStoreError) -> ProjectSettings? {
        try storing { try reading { db in try EventStoreSQL.settings(writeKey: writeKey, in: db) } }
    }

    /// Writes a project's settings, creating the project if needed.
    public func saveSettings(_ settings: ProjectSettings, writeKey: String) throws(EventStoreError) {
        try storing { try writingOne { db in try EventStoreSQL.save(settings, writeKey: writeKey, in: db) } }
    }

    /// Reads, changes and writes a project's settings in one transaction.
    public func updateSettings(writeKey: String, _ change: (ProjectSettings) throws -> ProjectSettings) throws
        -> ProjectSettings
    {
        try storing { try writing { db in try EventStoreSQL.update(writeKey: writeKey, in: db, change) } }.get()
    }

    /// Payload bytes stored per project.
    public func usage() throws(EventStoreError) -> [String: Int64] {
        try storing { try reading { db in try EventStoreSQL.usage(in: db) } }
    }

    /// Creates a project with default settings unless it exists.
    public func registerProject(writeKey: String) throws(EventStoreError) {
        try storing { try writingOne { db in try EventStoreSQL.register(writeKey: writeKey, in: db) } }
    }
}
