import CourierCore

/// The dedupe memory of a `SQLiteEventStore`, guarded by the store's mutex.
struct SeenMessages {
    var index: SeenMessageIndex
    /// Partitions (by first millisecond) that have their first event id in `dedupe_partitions`.
    var recordedPartitions: Set<Int64> = []
}

/// What one transaction adds to the dedupe memory, applied only once it has committed.
struct StagedMessages {
    struct Entry {
        let key: UInt64
        let id: Int64
        let receivedAt: Int64
    }

    var entries: [Entry] = []
    var byKey: SeenMessageIndex.Partition
    var partitions: Set<Int64> = []

    /// Room for `capacity` messages, so the staging table does not grow during the commit.
    init(capacity: Int) {
        entries.reserveCapacity(capacity)
        byKey = SeenMessageIndex.Partition(capacity: capacity)
    }

    mutating func add(_ entry: Entry) {
        entries.append(entry)
        byKey.insert(key: entry.key, id: entry.id)
    }
}

extension SQLiteEventStore {
    /// Fills the index with the events received since `cutoff`, scanning from the first event of
    /// the partition that holds the cutoff (`dedupe_partitions` says where it starts).
    func load(_ seen: inout SeenMessages, cutoff: Int64) throws {
        try pool.read { db in
            let first =
                try db.query(
                    "SELECT first_event_id FROM dedupe_partitions WHERE starts_at <= ?1 ORDER BY starts_at DESC LIMIT 1",
                    [.integer(cutoff)]
                ) { $0.int(0) }.first ?? 0
            _ = try db.query(
                "SELECT id, write_key, message_id, received_at FROM events WHERE id >= ?1 AND received_at >= ?2",
                [.integer(first), .integer(cutoff)]
            ) { row in
                seen.index.insert(
                    key: SeenMessageIndex.key(writeKey: row.text(1) ?? "", messageId: row.text(2) ?? ""),
                    id: row.int(0), receivedAt: row.int(3))
            }
            seen.recordedPartitions = Set(try db.query("SELECT starts_at FROM dedupe_partitions") { $0.int(0) })
        }
        seen.index.isLoaded = true
    }

    /// Inserts the messages not seen since `cutoff` and adds each project's stored bytes to its
    /// usage; what was stored is staged for the index.
    func store(
        _ batches: [[PreparedMessage]], in db: Database, seen: SeenMessages, staged: inout StagedMessages,
        cutoff: Int64
    ) throws -> [CommitOutcome] {
        let insert = try db.cachedStatement(
            "INSERT INTO events(write_key, message_id, type, received_at, payload) VALUES (?1, ?2, ?3, ?4, ?5)")
        let usage = try db.cachedStatement("UPDATE projects SET stored_bytes = stored_bytes + ?2 WHERE write_key = ?1")
        var outcomes: [CommitOutcome] = []
        outcomes.reserveCapacity(batches.count)
        // The partition the last stored message fell in, known to be recorded: most messages of a
        // commit share it, so the sets are not hashed per message.
        var recordedPartition: Int64?
        for batch in batches {
            var outcome = CommitOutcome(stored: 0, duplicates: 0)
            // A batch is one request's, so nearly always one project: runs of one write key are
            // summed without hashing the key per message (a key seen again later adds again).
            var bytesByProject: [(writeKey: String, bytes: Int)] = []
            for message in batch {
                let key = message.dedupeHash
                let isSame = { (id: Int64) throws -> Bool in
                    try Self.isStored(message, asRow: id, since: cutoff, in: db)
                }
                if try seen.index.contains(key, where: isSame)
                    || (try staged.byKey.contains(key, where: isSame))
                {
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
                let id = db.lastInsertRowID
                staged.add(.init(key: key, id: id, receivedAt: message.receivedAt))
                let partition = seen.index.partition(of: message.receivedAt)
                if partition != recordedPartition {
                    if !seen.recordedPartitions.contains(partition) && !staged.partitions.contains(partition) {
                        try db.run(
                            "INSERT OR IGNORE INTO dedupe_partitions(starts_at, first_event_id) VALUES (?1, ?2)",
                            [.integer(partition), .integer(id)])
                        staged.partitions.insert(partition)
                    }
                    recordedPartition = partition
                }
                outcome.stored += 1
                outcome.storedBytes += message.payload.count
                if let last = bytesByProject.indices.last, bytesByProject[last].writeKey == message.writeKey {
                    bytesByProject[last].bytes += message.payload.count
                } else {
                    bytesByProject.append((message.writeKey, message.payload.count))
                }
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

    /// Whether event row `id` is `message` (same project and `messageId`) received since `cutoff`:
    /// the check that makes a hash match exact.
    private static func isStored(_ message: PreparedMessage, asRow id: Int64, since cutoff: Int64, in db: Database)
        throws -> Bool
    {
        try db.query(
            "SELECT write_key, message_id, received_at FROM events WHERE id = ?1", [.integer(id)]
        ) { row in
            // Byte for byte, as the table's unique key compares them (`==` would call two spellings
            // of one accented id the same message).
            row.int(2) >= cutoff && row.text(1)?.hasSameBytes(as: message.messageId) == true
                && row.text(0)?.hasSameBytes(as: message.writeKey) == true
        }.first ?? false
    }
}
