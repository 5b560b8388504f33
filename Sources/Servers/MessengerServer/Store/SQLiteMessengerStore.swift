import CourierCore

/// The embedded messenger store: one SQLite file in WAL mode (or an in-memory database). Its
/// logic is `MessengerSQL`'s, shared with `PostgresMessengerStore`.
///
/// Sends commit with `synchronous=FULL`: a 200 means the rows are on disk. Acknowledgements
/// commit with `NORMAL`: a crash of the machine (not of the process) may forget the last ones,
/// which only redelivers envelopes the device already has and drops by `clientMessageId`.
public final class SQLiteMessengerStore: MessengerDatabaseStore {
    let pool: DatabasePool
    let batcher = SendBatcher()
    /// The lock (`<path>-writer.lock`) that makes this object the only one writing the file's
    /// mailbox, in this process or another; `nil` when another store holds it.
    private let writerLock: FileLock?
    /// Whether mailbox ids come only from this object's committer, in commit order (it holds
    /// the writer lock, or the database is in memory): then the messenger may hand new
    /// envelopes to live sockets at the commit (`SendBatcher.Pending.storedEntries`).
    let isSoleMailboxWriter: Bool

    /// Opens (creating and migrating) the store at `path`; `:memory:` keeps it in memory.
    /// - Throws: `DatabaseError`.
    public init(path: String, options: Database.Options = .init()) throws {
        pool = try DatabasePool(path: path, options: options, migrator: SQLiteMessengerSchema.migrator)
        if path == ":memory:" {
            writerLock = nil
            isSoleMailboxWriter = true
        } else {
            writerLock = try? FileLock(path: path + "-writer.lock")
            isSoleMailboxWriter = writerLock != nil
        }
    }

    /// Group commits of sends so far (one transaction each, however many sends it held).
    package var sendGroupCommits: Int { batcher.groupCommits }

    package func writing<T>(_ body: (Database) throws -> T) throws -> T { try pool.transaction(body) }

    package func reading<T>(_ body: (Database) throws -> T) throws -> T { try pool.read(body) }

    package func writingOne<T>(_ body: (Database) throws -> T) throws -> T { try pool.write(body) }

    public func expire(now: Int64) throws(MessengerStoreError) -> (envelopes: Int, attachments: [String]) {
        try storing { try pool.transaction { db in try db.expire(now: now) } }
    }
}

extension SQLiteMessengerStore {
    /// Creates accounts whose one device each uses `device`'s record, in one transaction: for
    /// benchmarks that need thousands of devices without thousands of commits.
    package func createAccounts(_ accountIds: [String], device: DeviceRecord) throws {
        try pool.transaction { db in
            for accountId in accountIds {
                try db.createAccount(accountId, device: device)
            }
        }
    }
}

extension MessengerConfiguration {
    /// The stored form of a device secret (a salted token hash), for benchmarks and tests that
    /// create devices through the store.
    package func hashPassword(_ password: String) -> String? { SaltedTokenHash(hashing: password).encoded }

    /// An Argon2id hash as devices registered before salted token hashes kept theirs, at
    /// libsodium's minimum cost or (`owaspCost`) the old default of 19 MiB and 2 passes: for
    /// tests and benchmarks of the migration and of the cap on concurrent verifications.
    package func legacyArgon2idHash(_ password: String, owaspCost: Bool = false) -> String? {
        (owaspCost ? PasswordHasher.standard : PasswordHasher.fastest).hash(password)
    }
}
