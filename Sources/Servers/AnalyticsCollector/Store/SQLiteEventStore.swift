import CourierCore
import Synchronization

/// The embedded event store: one SQLite file (or an in-memory database) in WAL mode.
public final class SQLiteEventStore: EventDatabaseStore {
    let pool: DatabasePool
    private let seen: Mutex<SeenMessages>

    /// Opens (creating and migrating) the store at `path`; `:memory:` keeps it in memory.
    /// - Parameters:
    ///   - path: the database file.
    ///   - options: SQLite settings (the collector keeps `synchronous=FULL`).
    /// - Throws: `DatabaseError`.
    ///   - dedupeWindow: the collector's dedupe window; it sets the width of the in-memory index's
    ///     partitions (an eighth of it), not which messages count as duplicates (each commit's
    ///     cutoff does).
    public init(path: String, options: Database.Options = .init(), dedupeWindow: Duration = .seconds(24 * 3600))
        throws
    {
        pool = try DatabasePool(path: path, options: options, migrator: SQLiteEventSchema.migrator)
        seen = Mutex(SeenMessages(index: SeenMessageIndex(window: dedupeWindow.wholeMilliseconds)))
    }

    /// Creates the events table (and its index) exactly as the store does, in a bare database, so a
    /// benchmark can measure SQLite inserting the same rows without the collector around it.
    /// - Throws: `DatabaseError`.
    package static func createBenchmarkTable(_ db: Database) throws {
        try SQLiteEventSchema.migrator.migrate(db)
    }

    package func writing<T>(_ body: (Database) throws -> T) throws -> T { try pool.transaction(body) }

    package func reading<T>(_ body: (Database) throws -> T) throws -> T { try pool.read(body) }

    package func writingOne<T>(_ body: (Database) throws -> T) throws -> T { try pool.write(body) }

    /// Stores batches in one transaction; see `EventStore.commit`. A `messageId` is looked up in
    /// the in-memory index of the window's events (filled from the events table on the first
    /// commit), so remembering it costs no write beyond the event row itself.
    public func commit(_ batches: [[PreparedMessage]], dedupeCutoff: Int64) throws(EventStoreError) -> [CommitOutcome] {
        try storing {
            try seen.withLock { seen throws -> [CommitOutcome] in
                if !seen.index.isLoaded { try load(&seen, cutoff: dedupeCutoff) }
                var staged = StagedMessages(capacity: batches.reduce(0) { $0 + $1.count })
                let outcomes = try pool.transaction { db in
                    try store(batches, in: db, seen: seen, staged: &staged, cutoff: dedupeCutoff)
                }
                // Only a committed transaction reaches the index; a rolled-back one leaves no trace.
                for entry in staged.entries {
                    seen.index.insert(key: entry.key, id: entry.id, receivedAt: entry.receivedAt)
                }
                seen.recordedPartitions.formUnion(staged.partitions)
                return outcomes
            }
        }
    }

    /// The id of a project's newest event, from the index (no scan).
    public func latestEventID(writeKey: String) throws(EventStoreError) -> Int64 {
        let ids: [Int64] = try storing {
            try pool.read { db in
                try db.query(
                    "SELECT coalesce(max(id), 0) FROM events WHERE write_key = ?1", [.text(writeKey)]
                ) { $0.int(0) }
            }
        }
        return ids.first ?? 0
    }

    /// Fills the dedupe index with the events received since `cutoff` now, so the scan (about a
    /// second per few million events) happens before the server listens rather than inside the
    /// first commit, where it would hold up the first requests. Does nothing once filled.
    /// - Throws: `EventStoreError`.
    public func loadDedupeIndex(since cutoff: Int64) throws(EventStoreError) {
        try storing {
            try seen.withLock { seen throws in
                if !seen.index.isLoaded { try load(&seen, cutoff: cutoff) }
            }
        }
    }

    /// Forgets dedupe entries of partitions that ended before `cutoff`: whole dictionaries are
    /// dropped, and the bookkeeping of where partitions start shrinks by a row or two.
    public func pruneSeenMessages(before cutoff: Int64) throws(EventStoreError) -> Int {
        try storing {
            try seen.withLock { seen throws -> Int in
                let forgotten = seen.index.forget(before: cutoff)
                try pool.write { db in
                    try db.run(
                        "DELETE FROM dedupe_partitions WHERE starts_at < "
                            + "(SELECT max(starts_at) FROM dedupe_partitions WHERE starts_at <= ?1)",
                        [.integer(cutoff)])
                }
                return forgotten
            }
        }
    }
}
