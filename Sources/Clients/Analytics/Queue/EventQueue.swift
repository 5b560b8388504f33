import CourierCore
import Foundation

/// One queued event.
struct QueuedEvent: Sendable {
    let id: Int64
    /// The message as JSON; without its `context` member when `context` is set.
    let payload: [UInt8]
    /// The encoded context the message shares with the others of its session, sent once per
    /// batch as the batch's `context` (the collector adds it to each message); `nil` when the
    /// payload carries its own (a plugin changed it, or an older build queued it).
    var context: [UInt8]? = nil
    /// The row of `context` in `contexts`.
    var contextId: Int64? = nil
}

/// An event on its way into the queue: its JSON and, when it shares its session's context, that
/// context's encoding (kept once in the queue, not in every row).
struct PendingEvent: Sendable {
    let payload: [UInt8]
    let context: [UInt8]?

    /// The message's size once its context is added back, as the collector measures it (the
    /// message, plus `{"context":…}` for the batch's shared members).
    var storedSize: Int { payload.count + (context.map { $0.count + 12 } ?? 0) }
}

/// The persisted queue: events in SQLite (WAL, `synchronous=NORMAL`, which survives a killed
/// process), with byte and age caps that drop the oldest first, plus the SDK's small persisted
/// state (ids, consent, settings). Owned by the pipeline actor; never touched elsewhere.
final class EventQueue {
    private let db: Database
    let path: String
    /// The lock on `queue.lock` beside the file, held while this queue has it open: another
    /// process with the same write key and folder queues in memory instead (macOS and Linux).
    private let lock: FileLock?
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
                """),
        .init(
            "contexts kept once",
            sql: """
                CREATE TABLE contexts(id INTEGER PRIMARY KEY AUTOINCREMENT, bytes BLOB NOT NULL);
                ALTER TABLE events ADD COLUMN context_id INTEGER;
                """),
    ])

    /// The context most recently stored, and its row: a session's events share it, so it is
    /// looked up once per append, not per event. `append` checks the row is still there inside
    /// its transaction: an older build's second instance may share the file, and a row no event
    /// names is deleted (`dropContextsIfUnused`).
    private var lastContext: (bytes: [UInt8], id: Int64)?
    /// Contexts read back for batches, by row. Rows are never reused (`AUTOINCREMENT`), so an id
    /// always means the same bytes.
    private var readContexts: [Int64: [UInt8]] = [:]

    /// How `open` found the queue file.
    enum Opening: Equatable {
        /// Opened as it was.
        case opened
        /// It was damaged: moved aside as `queue.sqlite.corrupt-<time>`, and a new queue started.
        case recovered
        /// A newer build migrated it (an app downgrade): it is left untouched for that build, and
        /// this launch queues in memory.
        case newerSchema
        /// Another process holds the folder's lock (the same app twice, or a tool, with the same
        /// write key and folder): the file is left to it, and this instance queues in memory.
        case heldByAnotherProcess
    }

    /// Opens the queue in `directory`. A file that is not a database (or fails its migration) is
    /// moved aside as `queue.sqlite.corrupt-<time>` and a new queue is started; a file from a newer
    /// build is kept and the queue lives in memory for this launch, as it does while another
    /// process holds the folder's lock.
    /// - Returns: the queue and how its file was found.
    static func open(directory: URL, now: Int64, maximumFileBytes: Int? = nil) throws -> (EventQueue, Opening) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        excludeFromBackup(directory)
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            // No lock: the system ends a suspended app that holds a file lock in a shared (App
            // Group) container. There an app and its extensions need folders of their own (the
            // default folder is per app).
            let lock: FileLock? = nil
        #else
            guard let lock = try lock(directory) else {
                return (try inMemory(maximumFileBytes: maximumFileBytes), .heldByAnotherProcess)
            }
        #endif
        let path = directory.appendingPathComponent("queue.sqlite").path
        do {
            return (try EventQueue(path: path, lock: lock, maximumFileBytes: maximumFileBytes), .opened)
        } catch is DatabaseSchemaError {
            return (try inMemory(maximumFileBytes: maximumFileBytes), .newerSchema)
        } catch let error as DatabaseError where error.isCorrupt || error.primaryCode == 1 {
            for suffix in ["", "-wal", "-shm"] {
                let file = path + suffix
                if FileManager.default.fileExists(atPath: file) {
                    try? FileManager.default.moveItem(atPath: file, toPath: path + ".corrupt-\(now)" + suffix)
                }
            }
            return (try EventQueue(path: path, lock: lock, maximumFileBytes: maximumFileBytes), .recovered)
        }
    }

    /// The folder's lock, or `nil` when another process holds it.
    private static func lock(_ directory: URL) throws -> FileLock? {
        do {
            return try FileLock(path: directory.appendingPathComponent("queue.lock").path)
        } catch {
            guard error.heldByAnotherProcess else { throw error }
            return nil
        }
    }

    /// A queue that lives in memory for this instance's life: nothing it holds is persisted.
    static func inMemory(maximumFileBytes: Int?) throws -> EventQueue {
        try EventQueue(path: ":memory:", lock: nil, maximumFileBytes: maximumFileBytes)
    }

    private init(path: String, lock: FileLock?, maximumFileBytes: Int?) throws {
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
        self.lock = lock
        // Contexts no queued event refers to any more (their session's events were sent).
        try? db.run(
            "DELETE FROM contexts WHERE id NOT IN (SELECT context_id FROM events WHERE context_id IS NOT NULL)")
        try refreshTotals()
    }

    private func refreshTotals() throws {
        let totals = try db.query("SELECT count(*), coalesce(sum(bytes), 0) FROM events") { ($0.int(0), $0.int(1)) }
        count = Int(totals.first?.0 ?? 0)
        bytes = Int(totals.first?.1 ?? 0)
    }

    /// Appends events in one transaction, then enforces the byte cap. A context shared by
    /// several events is stored once, in `contexts`, and each row names it.
    /// - Returns: how many of the oldest events the cap pushed out.
    func append(_ events: [PendingEvent], createdAt: Int64, maximumBytes: Int) throws -> Int {
        guard !events.isEmpty else { return 0 }
        var known = lastContext
        try db.transaction {
            if let cached = known,
                try db.query("SELECT 1 FROM contexts WHERE id = ?1", [.integer(cached.id)], row: { _ in true }).isEmpty
            {
                known = nil
            }
            let insert = try db.cachedStatement(
                "INSERT INTO events(created_at, bytes, payload, context_id) VALUES (?1, ?2, ?3, ?4)")
            for event in events {
                var contextId: Int64?
                if let context = event.context {
                    if let known, known.bytes == context {
                        contextId = known.id
                    } else {
                        let id = try storeContext(context)
                        known = (context, id)
                        contextId = id
                    }
                }
                insert.reset()
                try insert.bind(createdAt, at: 1)
                try insert.bind(Int64(event.payload.count), at: 2)
                try insert.bind(bytes: event.payload, at: 3)
                if let contextId { try insert.bind(contextId, at: 4) } else { try insert.bindNull(at: 4) }
                try insert.step()
            }
        }
        // Only once committed: a rolled-back row is not there to name.
        lastContext = known
        count += events.count
        bytes += events.reduce(0) { $0 + $1.payload.count }
        return try enforceByteCap(maximumBytes)
    }

    /// The row of `context`: an existing one with the same bytes, or a new one.
    private func storeContext(_ context: [UInt8]) throws -> Int64 {
        if let id = try db.query("SELECT id FROM contexts WHERE bytes = ?1", [.blob(context)], row: { $0.int(0) }).first
        {
            return id
        }
        try db.run("INSERT INTO contexts(bytes) VALUES (?1)", [.blob(context)])
        return db.lastInsertRowID
    }

    private func enforceByteCap(_ maximumBytes: Int) throws -> Int {
        guard bytes > maximumBytes else { return 0 }
        // Walk from the oldest in small pages, adding up sizes until enough is freed, then delete
        // that prefix: the work is proportional to what is dropped, not to the queue's length.
        let excess = bytes - maximumBytes
        var freed = 0
        var lastId: Int64 = 0
        var dropped = 0
        var contexts: Set<Int64> = []
        while freed < excess {
            let page = try db.query(
                "SELECT id, bytes, context_id FROM events WHERE id > ?1 ORDER BY id LIMIT 64", [.integer(lastId)]
            ) {
                ($0.int(0), Int($0.int(1)), $0.isNull(2) ? nil : $0.int(2))
            }
            if page.isEmpty { break }
            for (id, size, context) in page where freed < excess {
                freed += size
                lastId = id
                dropped += 1
                if let context { contexts.insert(context) }
            }
        }
        try db.run("DELETE FROM events WHERE id <= ?1", [.integer(lastId)])
        count -= dropped
        bytes -= freed
        dropContextsIfUnused(contexts)
        return dropped
    }

    /// Deletes events created before `cutoff`. Returns how many.
    func dropExpired(before cutoff: Int64) throws -> Int {
        // One pass: the deleted rows' contexts come back with the delete.
        let contexts = try db.query(
            "DELETE FROM events WHERE created_at < ?1 RETURNING context_id", [.integer(cutoff)]
        ) { $0.isNull(0) ? nil : $0.int(0) }
        if !contexts.isEmpty {
            try refreshTotals()
            dropContextsIfUnused(Set(contexts.compactMap { $0 }))
        }
        return contexts.count
    }

    /// The oldest events after queue id `after` that fit in `maximumCount` and `maximumBytes`
    /// (at least one) and share one context (or each carry their own): a batch sends its shared
    /// context once.
    func peek(after: Int64 = 0, maximumCount: Int, maximumBytes: Int) throws -> [QueuedEvent] {
        var batch: [QueuedEvent] = []
        var total = 0
        let rows = try db.query(
            "SELECT id, payload, context_id FROM events WHERE id > ?1 ORDER BY id LIMIT ?2",
            [.integer(after), .integer(Int64(maximumCount))]
        ) {
            QueuedEvent(id: $0.int(0), payload: $0.bytes(1), contextId: $0.isNull(2) ? nil : $0.int(2))
        }
        guard let first = rows.first else { return [] }
        let context = try first.contextId.flatMap(contextBytes)
        if let context { total += context.count + 12 }
        for var event in rows {
            guard event.contextId == first.contextId else { break }
            if !batch.isEmpty && total + event.payload.count + 1 > maximumBytes { break }
            total += event.payload.count + 1
            event.context = context
            batch.append(event)
        }
        return batch
    }

    /// A stored context's bytes (`nil` when its row is gone: the events then go without one).
    private func contextBytes(_ id: Int64) throws -> [UInt8]? {
        if let known = readContexts[id] { return known }
        let bytes = try db.query("SELECT bytes FROM contexts WHERE id = ?1", [.integer(id)]) { $0.bytes(0) }.first
        if let bytes {
            if readContexts.count >= 16 { readContexts.removeAll() }
            readContexts[id] = bytes
        }
        return bytes
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
        dropContextsIfUnused(Set(batch.compactMap(\.contextId)))
    }

    /// Deletes the events queued after `id` (those no batch has taken yet).
    /// - Returns: how many were deleted.
    @discardableResult
    func delete(after id: Int64) throws -> Int {
        let contexts = try db.query("DELETE FROM events WHERE id > ?1 RETURNING context_id", [.integer(id)]) {
            $0.isNull(0) ? nil : $0.int(0)
        }
        try refreshTotals()
        dropContextsIfUnused(Set(contexts.compactMap { $0 }))
        return contexts.count
    }

    /// Deletes those of `contexts` (rows whose events just left the queue) that no queued event
    /// names any more, except the one appends use now. Best effort: a row left behind goes at
    /// the next open. Without an index on `context_id` (it cost a fifth of the queue's write
    /// rate), each look-up scans from the oldest event: a context with events left finds one
    /// near the front (batches and the caps take the oldest first), and a row with none costs one
    /// pass over the queue, once, when its session's last event leaves.
    private func dropContextsIfUnused(_ contexts: Set<Int64>) {
        for context in contexts where context != lastContext?.id {
            try? db.run(
                "DELETE FROM contexts WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM events WHERE context_id = ?1)",
                [.integer(context)])
        }
    }

    /// Deletes every queued event.
    func deleteAll() throws {
        try db.run("DELETE FROM events")
        try db.run("DELETE FROM contexts")
        lastContext = nil
        readContexts = [:]
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
