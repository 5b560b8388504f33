import CourierCore

/// The collector's tables in SQLite: projects, events, and the partitions of the dedupe index
/// (see `SQLiteEventStore`).
enum SQLiteEventSchema {
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
        .init(
            "dedupe from the events table",
            sql: """
                DROP TABLE seen_messages;
                CREATE TABLE dedupe_partitions(
                    starts_at INTEGER PRIMARY KEY,
                    first_event_id INTEGER NOT NULL
                );
                INSERT INTO dedupe_partitions(starts_at, first_event_id) VALUES (-9223372036854775808, 0);
                """),
    ])
}
