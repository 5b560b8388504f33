import CourierCore

/// The embedded event store: one SQLite file (or an in-memory database) in WAL mode.
public final class SQLiteEventStore: EventStore {
    private let pool: DatabasePool

    static let migrator = Migrator([
        .init(
            "create projects, events and seen messages",
            sql: """
                CREATE TABLE projects(
                    write_key TEXT PRIMARY KEY,
                    settings TEXT NOT NULL,
                    created_at INTEGER NOT NULL DEFAULT (unixepoch())
                );
                CREATE TABLE events(
                    id INTEGER PRIMARY KEY,
                    write_key TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    type TEXT NOT NULL,
                    received_at INTEGER NOT NULL,
                    payload TEXT NOT NULL
                );
                CREATE INDEX events_by_project ON events(write_key, id);
                CREATE TABLE seen_messages(
                    write_key TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    seen_at INTEGER NOT NULL,
                    PRIMARY KEY(write_key, message_id)
                ) WITHOUT ROWID;
                """),
        .init(
            "project usage",
            sql: """
                ALTER TABLE projects ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
                UPDATE projects SET stored_bytes = (
                    SELECT coalesce(sum(length(CAST(payload AS BLOB))), 0) FROM events WHERE events.write_key = projects.write_key);
                """),
    ])

    /// Opens (creating and migrating) the store at `path`; `:memory:` keeps it in memory.
    /// - Throws: `DatabaseError`.
    public init(path: String, options: Database.Options = .init()) throws {
        pool = try DatabasePool(path: path, options: options, migrator: Self.migrator)
    }

    /// Creates the events table (and its index) exactly as the store does, in a bare database, so a
    /// benchmark can measure SQLite inserting the same rows without the collector around it.
    /// - Throws: `DatabaseError`.
    package static func createBenchmarkTable(_ db: Database) throws {
        try migrator.migrate(db)
    }

    /// Stores batches in one transaction; see `EventStore.commit`.
    public func commit(_ batches: [[PreparedMessage]], dedupeCutoff: Int64) throws(EventStoreError) -> [CommitOutcome] {
        try storage {
            try pool.transaction { db in
                let remember = try db.cachedStatement(
                    """
                    INSERT INTO seen_messages(write_key, message_id, seen_at) VALUES (?1, ?2, ?3)
                    ON CONFLICT(write_key, message_id) DO UPDATE SET seen_at = excluded.seen_at
                    WHERE seen_messages.seen_at < ?4
                    """)
                let insert = try db.cachedStatement(
                    "INSERT INTO events(write_key, message_id, type, received_at, payload) VALUES (?1, ?2, ?3, ?4, ?5)")
                let usage = try db.cachedStatement(
                    "UPDATE projects SET stored_bytes = stored_bytes + ?2 WHERE write_key = ?1")
                var outcomes: [CommitOutcome] = []
                outcomes.reserveCapacity(batches.count)
                for batch in batches {
                    var outcome = CommitOutcome(stored: 0, duplicates: 0)
                    var bytesByProject: [String: Int] = [:]
                    for message in batch {
                        remember.reset()
                        try remember.bind(message.writeKey, at: 1)
                        try remember.bind(message.messageId, at: 2)
                        try remember.bind(message.receivedAt, at: 3)
                        try remember.bind(dedupeCutoff, at: 4)
                        try remember.step()
                        guard db.changes == 1 else {
                            outcome.duplicates += 1
                            continue
                        }
                        insert.reset()
                        try insert.bind(message.writeKey, at: 1)
                        try insert.bind(message.messageId, at: 2)
                        try insert.bind(message.type, at: 3)
                        try insert.bind(message.receivedAt, at: 4)
                        try insert.bind(utf8Text: message.payload, at: 5)
                        try insert.step()
                        outcome.stored += 1
                        outcome.storedBytes += message.payload.count
                        bytesByProject[message.writeKey, default: 0] += message.payload.count
                    }
                    for (writeKey, bytes) in bytesByProject {
                        usage.reset()
                        try usage.bind(writeKey, at: 1)
                        try usage.bind(Int64(bytes), at: 2)
                        try usage.step()
                    }
                    outcomes.append(outcome)
                }
                return outcomes
            }
        }
    }

    /// Reads a page of a project's events.
    public func events(writeKey: String, after: Int64, limit: Int) throws(EventStoreError) -> EventPage {
        let rows: [StoredEvent] = try storage {
            try pool.read { db in
                try db.query(
                    "SELECT id, payload FROM events WHERE write_key = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
                    [.text(writeKey), .integer(after), .integer(Int64(limit))]
                ) { row in
                    StoredEvent(id: row.int(0), payload: (try? JSONParser.parse(row.bytes(1))) ?? .null)
                }
            }
        }
        return EventPage(events: rows, nextCursor: rows.count == limit ? rows.last?.id : nil)
    }

    /// The id of a project's newest event, from the index (no scan).
    public func latestEventID(writeKey: String) throws(EventStoreError) -> Int64 {
        let ids: [Int64] = try storage {
            try pool.read { db in
                try db.query(
                    "SELECT coalesce(max(id), 0) FROM events WHERE write_key = ?1", [.text(writeKey)]
                ) { $0.int(0) }
            }
        }
        return ids.first ?? 0
    }

    /// Deletes dedupe entries older than `cutoff`, a few thousand per transaction, so commits of
    /// incoming batches interleave with a large prune instead of waiting for all of it.
    public func pruneSeenMessages(before cutoff: Int64) throws(EventStoreError) -> Int {
        try storage {
            var total = 0
            while true {
                let removed = try pool.write { db -> Int in
                    try db.run(
                        "DELETE FROM seen_messages WHERE (write_key, message_id) IN "
                            + "(SELECT write_key, message_id FROM seen_messages WHERE seen_at < ?1 LIMIT 5000)",
                        [.integer(cutoff)])
                    return db.changes
                }
                total += removed
                if removed < 5000 { return total }
            }
        }
    }

    /// Reads a project's settings.
    public func settings(writeKey: String) throws(EventStoreError) -> ProjectSettings? {
        try storage {
            try pool.read { db in
                try db.query("SELECT settings FROM projects WHERE write_key = ?1", [.text(writeKey)]) { row in
                    ProjectSettings.decode(row.text(0) ?? "{}")
                }.first
            }
        }
    }

    /// Writes a project's settings, creating the project if needed.
    public func saveSettings(_ settings: ProjectSettings, writeKey: String) throws(EventStoreError) {
        try storage {
            try pool.write { db in
                try db.run(
                    """
                    INSERT INTO projects(write_key, settings) VALUES (?1, ?2)
                    ON CONFLICT(write_key) DO UPDATE SET settings = excluded.settings
                    """, [.text(writeKey), .text(JSONWriter.string(settings.json))])
            }
        }
    }

    /// Reads, changes and writes a project's settings in one transaction.
    public func updateSettings(writeKey: String, _ change: (ProjectSettings) throws -> ProjectSettings) throws
        -> ProjectSettings
    {
        var failure: (any Error)?
        let result: ProjectSettings? = try storage {
            try pool.transaction { db -> ProjectSettings? in
                let current =
                    try db.query("SELECT settings FROM projects WHERE write_key = ?1", [.text(writeKey)]) { row in
                        ProjectSettings.decode(row.text(0) ?? "{}")
                    }.first ?? ProjectSettings()
                let next: ProjectSettings
                do {
                    next = try change(current)
                } catch {
                    failure = error
                    return nil
                }
                try db.run(
                    "INSERT INTO projects(write_key, settings) VALUES (?1, ?2) "
                        + "ON CONFLICT(write_key) DO UPDATE SET settings = excluded.settings",
                    [.text(writeKey), .text(JSONWriter.string(next.json))])
                return next
            }
        }
        if let failure { throw failure }
        return result ?? ProjectSettings()
    }

    /// Payload bytes stored per project.
    public func usage() throws(EventStoreError) -> [String: Int64] {
        try storage {
            try pool.read { db in
                Dictionary(
                    try db.query("SELECT write_key, stored_bytes FROM projects") { ($0.text(0) ?? "", $0.int(1)) },
                    uniquingKeysWith: { first, _ in first })
            }
        }
    }

    /// Creates a project with default settings unless it exists.
    public func registerProject(writeKey: String) throws(EventStoreError) {
        try storage {
            try pool.write { db in
                try db.run(
                    "INSERT OR IGNORE INTO projects(write_key, settings) VALUES (?1, ?2)",
                    [.text(writeKey), .text(JSONWriter.string(ProjectSettings().json))])
            }
        }
    }

    /// Runs a database operation and translates its failure into the store's error.
    private func storage<T>(_ body: () throws -> T) throws(EventStoreError) -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw EventStoreError(error)
        } catch {
            throw EventStoreError(.unavailable, detail: "\(error)")
        }
    }
}
