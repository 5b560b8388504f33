import CourierCore
import Foundation

/// One queued event.
struct QueuedEvent: Sendable {
    let id: Int64
    let payload: [UInt8]
}

/// The persisted queue: events in SQLite (WAL, `synchronous=NORMAL`, which survives a killed
/// process), with byte and age caps that drop the oldest first, plus the SDK's small persisted
/// state (ids, consent, settings). Owned by the pipeline actor; never touched elsewhere.
final class EventQueue {
    private let db: Database
    let path: String
    private(set) var count = 0
    private(set) var bytes = 0

    static let migrator = Migrator([
        .init(
            "queue and state",
            sql: """
                CREATE TABLE events(
                    id INTEGER PRIMARY KEY,
                    created_at INTEGER NOT NULL,
                    bytes INTEGER NOT NULL,
                    payload BLOB NOT NULL
                );
                CREATE TABLE state(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                """)
    ])

    /// How `open` found the queue file.
    enum Opening: Equatable {
        /// Opened as it was.
        case opened
        /// It was damaged: moved aside as `queue.sqlite.corrupt-<time>`, and a new queue started.
        case recovered
        /// A newer build migrated it (an app downgrade): it is left untouched for that build, and
        /// this launch queues in memory.
        case newerSchema
    }

    /// Opens the queue in `directory`. A file that is not a database (or fails its migration) is
    /// moved aside as `queue.sqlite.corrupt-<time>` and a new queue is started; a file from a newer
    /// build is kept and the queue lives in memory for this launch.
    /// - Returns: the queue and how its file was found.
    static func open(directory: URL, now: Int64, maximumFileBytes: Int? = nil) throws -> (EventQueue, Opening) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        excludeFromBackup(directory)
        let path = directory.appendingPathComponent("queue.sqlite").path
        do {
            return (try EventQueue(path: path, maximumFileBytes: maximumFileBytes), .opened)
        } catch is DatabaseSchemaError {
            return (try EventQueue(path: ":memory:", maximumFileBytes: maximumFileBytes), .newerSchema)
        } catch let error as DatabaseError where error.isCorrupt || error.primaryCode == 1 {
            for suffix in ["", "-wal", "-shm"] {
                let file = path + suffix
                if FileManager.default.fileExists(atPath: file) {
                    try? FileManager.default.moveItem(atPath: file, toPath: path + ".corrupt-\(now)" + suffix)
                }
            }
            return (try EventQueue(path: path, maximumFileBytes: maximumFileBytes), .recovered)
        }
    }

    private init(path: String, maximumFileBytes: Int?) throws {
        var options = Database.Options()
        options.synchronous = "NORMAL"
        options.cacheSizeKiB = 2048
        options.maximumPageCount = maximumFileBytes.map { max(8, $0 / 4096) }
        db = try Database(path: path, options: options)
        try Self.migrator.migrate(db)
        // A file that opens but is damaged inside shows here, before the SDK relies on it.
        let check = try db.query("PRAGMA quick_check") { $0.text(0) ?? "" }
        if check.first != "ok" { throw DatabaseError(resultCode: 11, message: "queue failed its integrity check") }
        self.path = path
        try refreshTotals()
    }

    private func refreshTotals() throws {
        let totals = try db.query("SELECT count(*), coalesce(sum(bytes), 0) FROM events") { ($0.int(0), $0.int(1)) }
        count = Int(totals.first?.0 ?? 0)
        bytes = Int(totals.first?.1 ?? 0)
    }

    /// Appends events in one transaction, then enforces the byte cap.
    /// - Returns: how many of the oldest events the cap pushed out.
    func append(_ payloads: [[UInt8]], createdAt: Int64, maximumBytes: Int) throws -> Int {
        guard !payloads.isEmpty else { return 0 }
        try db.transaction {
            let insert = try db.cachedStatement("INSERT INTO events(created_at, bytes, payload) VALUES (?1, ?2, ?3)")
            for payload in payloads {
                insert.reset()
                try insert.bind(createdAt, at: 1)
                try insert.bind(Int64(payload.count), at: 2)
                try insert.bind(bytes: payload, at: 3)
                try insert.step()
            }
        }
        count += payloads.count
        bytes += payloads.reduce(0) { $0 + $1.count }
        return try enforceByteCap(maximumBytes)
    }

    private func enforceByteCap(_ maximumBytes: Int) throws -> Int {
        guard bytes > maximumBytes else { return 0 }
        // Walk from the oldest in small pages, adding up sizes until enough is freed, then delete
        // that prefix: the work is proportional to what is dropped, not to the queue's length.
        let excess = bytes - maximumBytes
        var freed = 0
        var lastId: Int64 = 0
        var dropped = 0
        while freed < excess {
            let page = try db.query(
                "SELECT id, bytes FROM events WHERE id > ?1 ORDER BY id LIMIT 64", [.integer(lastId)]
            ) {
                ($0.int(0), Int($0.int(1)))
            }
            if page.isEmpty { break }
            for (id, size) in page where freed < excess {
                freed += size
                lastId = id
                dropped += 1
            }
        }
        try db.run("DELETE FROM events WHERE id <= ?1", [.integer(lastId)])
        count -= dropped
        bytes -= freed
        return dropped
    }

    /// Deletes events created before `cutoff`. Returns how many.
    func dropExpired(before cutoff: Int64) throws -> Int {
        try db.run("DELETE FROM events WHERE created_at < ?1", [.integer(cutoff)])
        let removed = db.changes
        if removed > 0 { try refreshTotals() }
        return removed
    }

    /// The oldest events after queue id `after` that fit in `maximumCount` and `maximumBytes`
    /// (at least one).
    func peek(after: Int64 = 0, maximumCount: Int, maximumBytes: Int) throws -> [QueuedEvent] {
        var batch: [QueuedEvent] = []
        var total = 0
        let rows = try db.query(
            "SELECT id, payload FROM events WHERE id > ?1 ORDER BY id LIMIT ?2",
            [.integer(after), .integer(Int64(maximumCount))]
        ) {
            QueuedEvent(id: $0.int(0), payload: $0.bytes(1))
        }
        for row in rows {
            if !batch.isEmpty && total + row.payload.count + 1 > maximumBytes { break }
            batch.append(row)
            total += row.payload.count + 1
        }
        return batch
    }

    /// Deletes a batch that `peek` returned (the oldest events, so their ids form one range).
    func delete(_ batch: [QueuedEvent]) throws {
        guard let first = batch.first?.id, let last = batch.last?.id else { return }
        try db.run("DELETE FROM events WHERE id >= ?1 AND id <= ?2", [.integer(first), .integer(last)])
        if db.changes == batch.count {
            count -= batch.count
            bytes -= batch.reduce(0) { $0 + $1.payload.count }
        } else {
            // The byte cap removed part of the range meanwhile: count again.
            try refreshTotals()
        }
    }

    /// Deletes the events queued after `id` (those no batch has taken yet).
    /// - Returns: how many were deleted.
    @discardableResult
    func delete(after id: Int64) throws -> Int {
        try db.run("DELETE FROM events WHERE id > ?1", [.integer(id)])
        let deleted = db.changes
        try refreshTotals()
        return deleted
    }

    /// Deletes every queued event.
    func deleteAll() throws {
        try db.run("DELETE FROM events")
        count = 0
        bytes = 0
    }

    /// A persisted state value.
    func value(_ key: String) -> String? {
        (try? db.query("SELECT value FROM state WHERE key = ?1", [.text(key)]) { $0.text(0) })?.first ?? nil
    }

    /// Persists a state value (`nil` removes it).
    func setValue(_ value: String?, for key: String) throws {
        if let value {
            try db.run(
                "INSERT INTO state(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [.text(key), .text(value)])
        } else {
            try db.run("DELETE FROM state WHERE key = ?1", [.text(key)])
        }
    }

    private static func excludeFromBackup(_ directory: URL) {
        #if canImport(Darwin)
            var url = directory
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? url.setResourceValues(values)
        #endif
    }
}
