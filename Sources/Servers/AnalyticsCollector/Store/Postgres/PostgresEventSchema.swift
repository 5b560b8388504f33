import CourierCore
import CourierPostgres

/// The collector's tables on PostgreSQL: the SQLite store's projects and events, with the project
/// row's `last_event_id` counter and a `seen_messages` table for dedupe across instances (see
/// `PostgresEventStore`), and the volume and refusal aggregates (see `SharedObservations`).
enum PostgresEventSchema {
    static let migrator = PostgresMigrator(
        scope: "collector",
        [
            .init(
                "create projects, events and seen messages",
                sql: """
                    CREATE TABLE projects(
                        write_key text PRIMARY KEY,
                        settings text NOT NULL,
                        created_at bigint NOT NULL DEFAULT extract(epoch FROM now())::bigint,
                        stored_bytes bigint NOT NULL DEFAULT 0,
                        last_event_id bigint NOT NULL DEFAULT 0);
                    CREATE TABLE events(
                        write_key text NOT NULL,
                        id bigint NOT NULL,
                        message_id text NOT NULL,
                        type text NOT NULL,
                        received_at bigint NOT NULL,
                        payload text NOT NULL,
                        PRIMARY KEY(write_key, id));
                    CREATE TABLE seen_messages(
                        write_key text NOT NULL,
                        message_id text NOT NULL,
                        seen_at bigint NOT NULL,
                        PRIMARY KEY(write_key, message_id));
                    CREATE INDEX seen_messages_by_time ON seen_messages(seen_at);
                    """),
            .init(
                "create volume and rejection aggregates",
                sql: """
                    CREATE TABLE collector_volume(
                        write_key text NOT NULL,
                        type text NOT NULL,
                        minute bigint NOT NULL,
                        count bigint NOT NULL,
                        PRIMARY KEY(write_key, type, minute));
                    CREATE INDEX collector_volume_by_minute ON collector_volume(minute);
                    CREATE TABLE collector_rejection_counts(
                        write_key text NOT NULL,
                        code text NOT NULL,
                        count bigint NOT NULL,
                        PRIMARY KEY(write_key, code));
                    CREATE TABLE collector_rejections(
                        id bigserial PRIMARY KEY,
                        write_key text NOT NULL,
                        at bigint NOT NULL,
                        code text NOT NULL,
                        message text NOT NULL,
                        count bigint NOT NULL);
                    CREATE INDEX collector_rejections_by_project ON collector_rejections(write_key, id);
                    """),
        ])
}
