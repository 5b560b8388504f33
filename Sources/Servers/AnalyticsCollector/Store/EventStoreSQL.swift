import CourierCore

/// The event stores' project and page queries, written once against `SQLConnection` with
/// statements written once for both engines; each store keeps its own commit, dedupe and
/// transactions around them.
enum EventStoreSQL {
    static let settings = SQLStatement("SELECT settings FROM projects WHERE write_key = $1")
    /// The project's row, locked until commit on PostgreSQL, where two instances may update its
    /// settings at once; SQLite's writers take turns anyway.
    static let lockedSettings = SQLStatement(
        lockingRows: "SELECT settings FROM projects WHERE write_key = $1 FOR UPDATE")
    static let saveSettings = SQLStatement(
        """
        INSERT INTO projects(write_key, settings) VALUES ($1, $2)
        ON CONFLICT(write_key) DO UPDATE SET settings = excluded.settings
        """)
    static let registerProject = SQLStatement(
        "INSERT INTO projects(write_key, settings) VALUES ($1, $2) ON CONFLICT(write_key) DO NOTHING")
    static let usage = SQLStatement("SELECT write_key, stored_bytes FROM projects")
    static let events = SQLStatement(
        "SELECT id, payload FROM events WHERE write_key = $1 AND id > $2 ORDER BY id LIMIT $3")
    static let recentEvents = SQLStatement(
        "SELECT id, payload FROM events WHERE write_key = $1 ORDER BY id DESC LIMIT $2")

    /// A project's settings, `nil` when the project does not exist.
    static func settings<C: SQLConnection>(writeKey: String, in db: C) throws -> ProjectSettings? {
        try db.query(settings, [.text(writeKey)]) { row in ProjectSettings.decode(row.text(0) ?? "{}") }.first
    }

    /// Writes a project's settings, creating the project if needed.
    static func save<C: SQLConnection>(_ settings: ProjectSettings, writeKey: String, in db: C) throws {
        try db.run(saveSettings, [.text(writeKey), .text(JSONWriter.string(settings.json))])
    }

    /// Reads, changes and writes a project's settings inside the caller's transaction. What
    /// `change` throws comes back as the result's failure, with nothing written, so the caller can
    /// rethrow it as it is rather than as a store error; the engine's errors are thrown.
    static func update<C: SQLConnection>(
        writeKey: String, in db: C, _ change: (ProjectSettings) throws -> ProjectSettings
    ) throws -> Result<ProjectSettings, any Error> {
        let current =
            try db.query(lockedSettings, [.text(writeKey)]) { row in ProjectSettings.decode(row.text(0) ?? "{}") }
            .first ?? ProjectSettings()
        let next: ProjectSettings
        do {
            next = try change(current)
        } catch {
            return .failure(error)
        }
        try save(next, writeKey: writeKey, in: db)
        return .success(next)
    }

    /// Creates a project with default settings unless it exists.
    static func register<C: SQLConnection>(writeKey: String, in db: C) throws {
        try db.run(registerProject, [.text(writeKey), .text(JSONWriter.string(ProjectSettings().json))])
    }

    /// Payload bytes stored per project.
    static func usage<C: SQLConnection>(in db: C) throws -> [String: Int64] {
        Dictionary(
            try db.query(usage, []) { ($0.text(0) ?? "", $0.int(1)) }, uniquingKeysWith: { first, _ in first })
    }

    /// A page of a project's events after the cursor `after`.
    static func events<C: SQLConnection>(writeKey: String, after: Int64, limit: Int, in db: C) throws -> EventPage {
        let rows = try db.query(events, [.text(writeKey), .integer(after), .integer(Int64(limit))]) { storedEvent($0) }
        return EventPage(events: rows, nextCursor: rows.count == limit ? rows.last?.id : nil)
    }

    /// A project's newest `limit` events, oldest first.
    static func recentEvents<C: SQLConnection>(writeKey: String, limit: Int, in db: C) throws -> [StoredEvent] {
        try db.query(recentEvents, [.text(writeKey), .integer(Int64(limit))]) { storedEvent($0) }.reversed()
    }

    /// An `events` row (`id, payload`) as the read API returns it.
    private static func storedEvent(_ row: any DatabaseRow) -> StoredEvent {
        StoredEvent(id: row.int(0), payload: (try? JSONParser.parse(row.bytes(1))) ?? .null)
    }
}
