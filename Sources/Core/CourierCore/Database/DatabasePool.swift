import Foundation
import Synchronization

/// A database shared across threads: one writer connection that callers take in turn, and
/// reader connections that run concurrently with it (WAL lets readers see the last commit while a
/// write is in progress).
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

    /// Runs `body` with the writer connection, one caller at a time.
    /// - Throws: what `body` throws; `DatabaseError` (`misuse`) when called from inside another
    ///   `write`, `transaction` (or in-memory `read`) of the same pool on the same thread, which
    ///   would otherwise wait for itself forever.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.withLock(body)
    }

    /// Runs `body` inside a write transaction.
    /// - Throws: what `body` throws; the transaction rolls back.
    public func transaction<T>(_ body: (Database) throws -> T) throws -> T {
        try write { db in try db.transaction { try body(db) } }
    }

    /// Runs `body` with a reader connection inside a deferred transaction, so every query in it
    /// sees one snapshot of the database; readers do not wait for the writer.
    /// - Throws: what `body` throws, or `DatabaseError` when a reader cannot be opened.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        if isInMemory { return try write { db in try db.readTransaction { try body(db) } } }
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
