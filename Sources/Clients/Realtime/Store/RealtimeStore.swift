import CourierCore
import Foundation

/// The persisted half of a realtime client, one SQLite file (WAL, so it survives a killed
/// process): the outbox, the ids of items already received (for de-duplication), their order,
/// and the resume cursor.
///
/// ```swift
/// let store = try RealtimeStore(path: directory + "/realtime.sqlite")
/// let item = try store.enqueue(destination: "alice", payload: body)
/// ```
public final class RealtimeStore: Sendable {
    let database: DatabasePool
    /// Largest payload accepted by `enqueue`.
    public let maximumPayloadBytes: Int

    static let migrator = Migrator([
        .init(
            "outbox, inbox and cursor",
            sql: """
                CREATE TABLE outbox(
                    position INTEGER PRIMARY KEY AUTOINCREMENT,
                    client_id TEXT NOT NULL UNIQUE,
                    destination TEXT NOT NULL,
                    payload BLOB NOT NULL,
                    state TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at INTEGER NOT NULL DEFAULT 0,
                    server_seq INTEGER,
                    last_error TEXT
                );
                CREATE INDEX outbox_due ON outbox(state, next_attempt_at, position);
                CREATE TABLE inbox(
                    id TEXT PRIMARY KEY,
                    conversation TEXT NOT NULL,
                    server_seq INTEGER NOT NULL,
                    body TEXT NOT NULL
                );
                CREATE INDEX inbox_order ON inbox(conversation, server_seq);
                CREATE TABLE cursor(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                """)
    ])

    /// Opens (or creates) the store at `path` (`":memory:"` for one that dies with the process).
    /// - Parameters:
    ///   - path: the SQLite file.
    ///   - maximumPayloadBytes: the largest payload `enqueue` takes.
    /// - Throws: `RealtimeError` `storage` when the file cannot be opened or migrated.
    public init(path: String, maximumPayloadBytes: Int = 256 * 1024) throws(RealtimeError) {
        do {
            var options = Database.Options()
            options.synchronous = "NORMAL"
            options.cacheSizeKiB = 2048
            database = try DatabasePool(path: path, options: options, migrator: Self.migrator, maximumIdleReaders: 0)
        } catch {
            throw RealtimeError(.storage, "cannot open the realtime store at \(path): \(error)")
        }
        self.maximumPayloadBytes = maximumPayloadBytes
    }

    /// Runs `body` on the connection, turning a SQLite failure into `RealtimeError.storage`.
    func access<T>(_ body: (Database) throws -> T) throws(RealtimeError) -> T {
        do {
            return try database.write { db in try body(db) }
        } catch let error as RealtimeError {
            throw error
        } catch {
            throw RealtimeError(.storage, "\(error)")
        }
    }

    /// The stored resume cursor: the position of the last item received in order (0 at first).
    /// - Throws: `RealtimeError` `storage`.
    public func cursor() throws(RealtimeError) -> Int64 {
        try access { db in try db.query("SELECT value FROM cursor WHERE name = 'resume'") { $0.int(0) }.first ?? 0 }
    }

    /// Moves the resume cursor forward to `value` (never back).
    /// - Throws: `RealtimeError` `storage`.
    public func advanceCursor(to value: Int64) throws(RealtimeError) {
        try access { db in
            try db.run(
                """
                INSERT INTO cursor(name, value) VALUES('resume', ?1)
                ON CONFLICT(name) DO UPDATE SET value = max(value, excluded.value)
                """, [.integer(value)])
        }
    }
}
