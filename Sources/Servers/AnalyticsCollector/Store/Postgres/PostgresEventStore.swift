import CourierCore
import CourierPostgres

/// The event store on PostgreSQL, for several collector instances sharing one database: the
/// SQLite store's tables and columns, and the same behaviour (the same tests run against both).
///
/// - **Cursors in commit order.** An event's id counts per project, taken from the project row
///   (`projects.last_event_id`) by the transaction that stores it, which holds that row until it
///   commits: ids become visible in order, so `GET /v1/events?after=` and the console's live
///   stream never skip an event that commits late (ids from a shared sequence would).
/// - **Exact dedupe across instances.** `seen_messages(write_key, message_id, seen_at)` is written
///   with `INSERT … ON CONFLICT DO UPDATE … WHERE seen_at < cutoff RETURNING`: a message id is new
///   if it was never seen or last seen before the window, whichever instance saw it.
/// - **Group commit.** Each instance still stores all the batches that queued during a commit in
///   one transaction, with one statement per step for the whole group.
///
/// Its methods block the calling thread for the round trips, as the SQLite store does for its disk.
public final class PostgresEventStore: EventDatabaseStore {
    let pool: PostgresPool

    /// Connects to `url` (`postgres://…`) with up to `connections` connections and migrates the
    /// collector's tables.
    /// - Throws: `PostgresError`, or `DatabaseSchemaError` when a newer build migrated the database.
    public init(url: String, connections: Int = 8) throws {
        pool = try PostgresPool(url: url, size: connections, migrator: PostgresEventSchema.migrator)
    }

    package func writing<T>(_ body: (PostgresConnection) throws -> T) throws -> T { try pool.write(body) }

    package func reading<T>(_ body: (PostgresConnection) throws -> T) throws -> T { try pool.withConnection(body) }

    package func writingOne<T>(_ body: (PostgresConnection) throws -> T) throws -> T { try pool.withConnection(body) }

    public func commit(_ batches: [[PreparedMessage]], dedupeCutoff: Int64) throws(EventStoreError) -> [CommitOutcome] {
        try storing { try pool.write { db in try store(batches, cutoff: dedupeCutoff, in: db) } }
    }

    /// One group commit: marks the messages seen (learning which are new), reserves each
    /// project's ids, inserts the events.
    private func store(_ batches: [[PreparedMessage]], cutoff: Int64, in db: PostgresConnection) throws
        -> [CommitOutcome]
    {
        // A message id repeated inside the group is a duplicate of its first occurrence.
        var firstSeen = Set<SeenKey>()
        var candidates: [JSONValue] = []
        for message in batches.joined() where firstSeen.insert(SeenKey(message)).inserted {
            candidates.append(
                ["w": .string(message.writeKey), "m": .string(message.messageId), "r": .int(message.receivedAt)])
        }
        let fresh = Set(
            try db.query(
                """
                INSERT INTO seen_messages(write_key, message_id, seen_at)
                SELECT w, m, r FROM json_to_recordset($1::json) AS x(w text, m text, r bigint)
                ON CONFLICT(write_key, message_id) DO UPDATE SET seen_at = excluded.seen_at
                WHERE seen_messages.seen_at < $2
                RETURNING write_key, message_id
                """, [.text(JSONWriter.string(.array(candidates))), .integer(cutoff)]
            ) { row in SeenKey(writeKey: row.text(0) ?? "", messageId: row.text(1) ?? "") })

        var outcomes: [CommitOutcome] = []
        var storing: [PreparedMessage] = []
        var claimed = Set<SeenKey>()
        for batch in batches {
            var outcome = CommitOutcome(stored: 0, duplicates: 0)
            for message in batch {
                let key = SeenKey(message)
                guard fresh.contains(key), claimed.insert(key).inserted else {
                    outcome.duplicates += 1
                    continue
                }
                storing.append(message)
                outcome.stored += 1
                outcome.storedBytes += message.payload.count
            }
            outcomes.append(outcome)
        }
        guard !storing.isEmpty else { return outcomes }

        // Each project's ids, reserved in write-key order (every instance locks in that order).
        let byProject = Dictionary(grouping: storing, by: \.writeKey)
        var rows: [JSONValue] = []
        rows.reserveCapacity(storing.count)
        for writeKey in byProject.keys.sorted() {
            let messages = byProject[writeKey] ?? []
            let bytes = messages.reduce(0) { $0 + $1.payload.count }
            let last =
                try db.query(
                    """
                    INSERT INTO projects(write_key, settings, stored_bytes, last_event_id) VALUES ($1, $2, $3, $4)
                    ON CONFLICT(write_key) DO UPDATE SET
                        stored_bytes = projects.stored_bytes + excluded.stored_bytes,
                        last_event_id = projects.last_event_id + excluded.last_event_id
                    RETURNING last_event_id
                    """,
                    [
                        .text(writeKey), .text(JSONWriter.string(ProjectSettings().json)), .integer(Int64(bytes)),
                        .integer(Int64(messages.count)),
                    ]
                ) { $0.int(0) }.first ?? Int64(messages.count)
            var id = last - Int64(messages.count)
            for message in messages {
                id += 1
                rows.append([
                    "w": .string(writeKey), "i": .int(id), "m": .string(message.messageId), "t": .string(message.type),
                    "r": .int(message.receivedAt), "p": .string(String(decoding: message.payload, as: UTF8.self)),
                ])
            }
        }
        try db.run(
            """
            INSERT INTO events(write_key, id, message_id, type, received_at, payload)
            SELECT w, i, m, t, r, p FROM json_to_recordset($1::json) AS x(w text, i bigint, m text, t text, r bigint, p text)
            """, [.text(JSONWriter.string(.array(rows)))])
        return outcomes
    }

    /// The project's newest id, kept on its row.
    public func latestEventID(writeKey: String) throws(EventStoreError) -> Int64 {
        try storing {
            try pool.withConnection { db in
                try db.query("SELECT last_event_id FROM projects WHERE write_key = $1", [.text(writeKey)]) {
                    $0.int(0)
                }.first ?? 0
            }
        }
    }

    /// Deletes the dedupe rows of messages last seen before `cutoff`; one instance at a time
    /// (another running it now makes this round a no-op that returns 0).
    public func pruneSeenMessages(before cutoff: Int64) throws(EventStoreError) -> Int {
        try storing {
            try pool.ifNoOtherInstanceRuns("collector.prune-seen-messages") { db in
                try db.run("DELETE FROM seen_messages WHERE seen_at < $1", [.integer(cutoff)])
            } ?? 0
        }
    }
}

/// A message's dedupe identity: its project and `messageId`, byte for byte, as PostgreSQL's key
/// compares them (a `String`'s `==` would call two spellings of one accented id the same).
struct SeenKey: Hashable {
    let writeKey: ExactText
    let messageId: ExactText

    init(writeKey: String, messageId: String) {
        self.writeKey = ExactText(writeKey)
        self.messageId = ExactText(messageId)
    }

    init(_ message: PreparedMessage) { self.init(writeKey: message.writeKey, messageId: message.messageId) }
}
