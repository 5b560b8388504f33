import Foundation
import Synchronization

/// A database shared across threads: one writer connection that callers take in turn, and
/// reader connections that run concurrently with it (WAL lets readers see the last commit while a
/// write is in progress).
///
/// `write` runs its closure in one transaction (`db.savepoint` nests inside it);
/// `writeWithoutTransaction` is the exception for what SQLite refuses inside one. From an actor or
/// another task, `try await pool.read { … }` and `try await pool.write { … }` block one of the
/// pool's own threads instead of one of Swift's cooperative pool.
///
/// The `Database` handed to a closure belongs to the pool: return values computed from it, never
/// the connection, a `Statement` or a `Row` (results are generic so that callers such as a
/// decrypting session can hand back their own, possibly non-`Sendable`, values).
public final class DatabasePool: Sendable {
    private let writer: LockedConnection
    private let idleReaders: Mutex<[LockedConnection]>
    private let path: String
    private let options: Database.Options
    private let maximumIdleReaders: Int
    /// Where async writes (and in-memory reads) block: a serial queue, so at most one of its
    /// threads waits for the writer connection. A serial queue gets a thread of its own when it has
    /// work; a concurrent one would borrow from the few threads that, on Linux, Swift's cooperative
    /// pool shares with it.
    let writerQueue = DispatchQueue(label: "courier.database.writer")
    /// Where async reads on reader connections block: a few serial queues taken in turn, so
    /// concurrent reads run side by side on a bounded number of threads.
    let readerQueues = (0..<4).map { DispatchQueue(label: "courier.database.reader.\($0)") }
    /// The reader queue the next async read takes.
    let nextReaderQueue = Atomic<UInt>(0)

    /// Opens the database at `path` (`:memory:` gives one private connection for both reads and writes)
    /// and runs `migrator`.
    /// - Throws: `DatabaseError`.
    public init(
        path: String, options: Database.Options = .init(), migrator: Migrator? = nil,
        maximumIdleReaders: Int = 8
    ) throws {
        let db = try Database(path: path, options: options)
        try migrator?.migrate(db)
        writer = LockedConnection(db)
        idleReaders = Mutex([])
        self.path = path
        self.options = options
        self.maximumIdleReaders = maximumIdleReaders
    }

    /// Whether this pool is a private in-memory database.
    public var isInMemory: Bool { path == ":memory:" }

    /// Runs `body` inside a write transaction (`BEGIN IMMEDIATE … COMMIT`) on the writer
    /// connection, one caller at a time: all of it commits, or none of it when `body` throws. Inside
    /// `body`, `db.savepoint` nests.
    ///
    /// ```swift
    /// try pool.write { db in
    ///     try db.run("INSERT INTO items(name) VALUES (?1)", [.text(name)])
    ///     try db.run("UPDATE counts SET n = n + 1")
    /// }
    /// ```
    /// - Throws: what `body` throws (the transaction rolls back); `DatabaseError` from begin or
    ///   commit; `DatabaseError` (`misuse`) when called from inside another `write` (or in-memory
    ///   `read`) of the same pool on the same thread, which would otherwise wait for itself forever.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.withLock { db in try db.transaction { try body(db) } }
    }

    /// Runs `body` inside a write transaction, as `write`, whose commit does not wait for an fsync
    /// of its own (`PRAGMA synchronous=NORMAL` for this transaction, then the pool's setting again).
    ///
    /// In WAL mode the commit is atomic and survives a crash of the process at once; it survives
    /// power loss from the next commit that syncs (the log is written in order, so that fsync
    /// covers this commit too) or the next checkpoint. For bookkeeping whose loss in that window
    /// only repeats work (a send marked done, retried under the same id), never for state a peer
    /// relies on once it is acknowledged.
    /// - Throws: what `body` throws (the transaction rolls back); `DatabaseError` as `write`.
    public func writeDeferringSync<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.withLock { db in
            let setting = options.synchronous.uppercased()
            guard setting == "FULL" || setting == "EXTRA" else { return try db.transaction { try body(db) } }
            try db.execute("PRAGMA synchronous=NORMAL")
            let outcome = Result { try db.transaction { try body(db) } }
            // Restored before anything else commits on this connection; if that fails, the caller
            // hears of it rather than later commits silently skipping their fsync.
            try db.execute("PRAGMA synchronous=\(options.synchronous)")
            return try outcome.get()
        }
    }

    /// Runs `body` with the writer connection outside any transaction: each statement commits on
    /// its own. For what SQLite refuses inside a transaction (`VACUUM`, `PRAGMA wal_checkpoint`,
    /// some `PRAGMA`s) and for code that issues its own `BEGIN`.
    /// - Throws: what `body` throws; `DatabaseError` (`misuse`) on re-entry, as `write`.
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.withLock(body)
    }

    /// The same as `write`: runs `body` inside a write transaction.
    /// - Throws: what `body` throws; the transaction rolls back.
    public func transaction<T>(_ body: (Database) throws -> T) throws -> T {
        try write(body)
    }

    /// Runs `body` with a reader connection inside a deferred transaction, so every query in it
    /// sees one snapshot of the database; readers do not wait for the writer.
    /// - Throws: what `body` throws, or `DatabaseError` when a reader cannot be opened.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        if isInMemory { return try writer.withLock { db in try db.readTransaction { try body(db) } } }
        let reader = try idleReaders.withLock { $0.popLast() } ?? openReader()
        defer {
            idleReaders.withLock { idle in
                if idle.count < maximumIdleReaders { idle.append(reader) }
            }
        }
        return try reader.withLock { db in try db.readTransaction { try body(db) } }
    }

    private func openReader() throws -> LockedConnection {
        var readOptions = options
        readOptions.readOnly = true
        return LockedConnection(try Database(path: path, options: readOptions))
    }
}

/// A connection and the lock that serialises every use of it.
private final class LockedConnection: @unchecked Sendable {
    // @unchecked: `database` is private and only reached inside `withLock`, so no two threads
    // ever use the connection at once; `owner` is only written by the thread holding `lock`.
    private let database: Database
    private let lock = NSLock()
    private let owner = Atomic<UInt>(0)

    init(_ database: Database) { self.database = database }

    func withLock<T>(_ body: (Database) throws -> T) throws -> T {
        let me = currentThreadID()
        // Only this thread can have stored its own id, so a match means re-entry, not a race.
        if owner.load(ordering: .relaxed) == me {
            throw DatabaseError(
                resultCode: ResultCode.misuse.rawValue,
                message: "a database write was started inside another write of the same pool on the same thread")
        }
        lock.lock()
        owner.store(me, ordering: .relaxed)
        defer {
            owner.store(0, ordering: .relaxed)
            lock.unlock()
        }
        return try body(database)
    }
}

/// A number that identifies the calling thread while it lives.
private func currentThreadID() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
