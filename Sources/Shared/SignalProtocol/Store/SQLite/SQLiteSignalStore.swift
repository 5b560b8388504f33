internal import CourierCore
import Dispatch
import Synchronization

/// Every Signal store on one SQLite file (or `:memory:`): sessions, one-time and signed prekeys,
/// identities with trust decisions, sender keys, and this device's identity.
///
/// Records are stored in the module's `Storage/` format, sealed with XChaCha20-Poly1305 under a
/// key from a `KeyProvider` (the row's table and key are the associated data, so blobs cannot be
/// swapped between rows). `stores` carries a transaction runner, so a decrypt commits the new
/// session state, the consumed one-time prekey, the saved identity and the caller's `accept`
/// closure in one `BEGIN IMMEDIATE … COMMIT`, or rolls all of it back.
///
/// Old state does not linger: the files are created with mode 0600, deleted and overwritten rows
/// are zeroed (`secure_delete`), and the write-ahead log is checkpointed and truncated within the
/// bound of a `LogTruncationPolicy` (32 commits or 500 ms by default; `flushLog()` at once), so
/// superseded session records and used prekeys do not stay in it.
///
/// Errors are `SignalProtocolError`: `.storageFailure` for the database (the `DatabaseError` in
/// `underlying`), `.corruptRecord` for a row that does not decode.
public final class SQLiteSignalStore: Sendable {
    /// The file the store was opened with (`:memory:` for a private in-memory database).
    public let path: String
    /// How changed remote identity keys are treated.
    public let policy: IdentityTrustPolicy
    let pool: DatabasePool
    let sealer: RecordSealer
    let identity: IdentityKeyPair
    let registrationId: UInt32
    /// When the log is truncated.
    public let logTruncation: LogTruncationPolicy
    /// Commits since the log was last truncated, and whether a timer will truncate it.
    private let logState = Mutex((commits: 0, timerArmed: false))
    private let commitCount = Mutex(0)

    /// Write transactions committed since the store was opened (each is one fsync), for tests and
    /// benchmarks that measure how many commits a workload needs.
    package var transactionsCommitted: Int { commitCount.withLock { $0 } }

    /// Opens (creating if needed) the store at `path` for the device `identity`; on an existing
    /// file the stored identity must be the same.
    /// - Parameter keyProvider: the key that seals the records; the same key must be given every time.
    /// - Throws: `.storageFailure`; `.invalidArgument` when the file holds another identity;
    ///   `.corruptRecord` when the stored identity does not open with the provider's key.
    /// - Parameter logTruncation: how soon superseded records leave the write-ahead log.
    public convenience init(
        path: String, keyProvider: any KeyProvider, identity: IdentityKeyPair, registrationId: UInt32,
        policy: IdentityTrustPolicy = .trustOnFirstUse, logTruncation: LogTruncationPolicy = .standard
    ) throws {
        try self.init(
            path: path, keyProvider: keyProvider, policy: policy, newIdentity: (identity, registrationId),
            options: .init(), logTruncation: logTruncation)
    }

    /// Reopens the store at `path` with the identity stored in it.
    /// - Throws: `.storageFailure`; `.invalidArgument` when the file holds no identity yet;
    ///   `.corruptRecord` when the stored identity does not open with the provider's key.
    public convenience init(
        path: String, keyProvider: any KeyProvider, policy: IdentityTrustPolicy = .trustOnFirstUse,
        logTruncation: LogTruncationPolicy = .standard
    ) throws {
        try self.init(
            path: path, keyProvider: keyProvider, policy: policy, newIdentity: nil, options: .init(),
            logTruncation: logTruncation)
    }

    /// Reopens with explicit connection options (tests bound the file size with them).
    convenience init(
        path: String, keyProvider: any KeyProvider, policy: IdentityTrustPolicy, options: Database.Options
    ) throws {
        try self.init(
            path: path, keyProvider: keyProvider, policy: policy, newIdentity: nil, options: options,
            logTruncation: .standard)
    }

    private init(
        path: String, keyProvider: any KeyProvider, policy: IdentityTrustPolicy,
        newIdentity: (IdentityKeyPair, UInt32)?, options: Database.Options, logTruncation: LogTruncationPolicy
    ) throws {
        let sealer = try RecordSealer(key: keyProvider.storageKey())
        var options = options
        options.filePermissions = 0o600
        let pool = try SQLiteStorageError.translating("open \(path)") {
            let pool = try DatabasePool(path: path, options: options, migrator: SQLiteSignalSchema.migrator)
            // Deleted rows are zeroed, nothing spills to temporary files, and the log is cut back to
            // nothing whenever it is reset.
            try pool.writeWithoutTransaction {
                try $0.execute("PRAGMA secure_delete = ON; PRAGMA temp_store = MEMORY; PRAGMA journal_size_limit = 0")
            }
            return pool
        }
        let local = try SQLiteStorageError.translating("load the local identity") {
            try pool.transaction { database in
                let tables = SQLiteSignalTables(database, sealer)
                try tables.sealLegacyRecords()
                if let stored = try tables.localIdentity() {
                    if let newIdentity,
                        stored.identity.identityKey != newIdentity.0.identityKey
                            || stored.registrationId != newIdentity.1
                    {
                        throw SignalProtocolError(.invalidArgument, "\(path) already holds another device identity")
                    }
                    return stored
                }
                guard let newIdentity else {
                    throw SignalProtocolError(.invalidArgument, "\(path) holds no device identity")
                }
                try tables.storeLocalIdentity(newIdentity.0, registrationId: newIdentity.1)
                return (identity: newIdentity.0, registrationId: newIdentity.1)
            }
        }
        self.path = path
        self.policy = policy
        self.pool = pool
        self.sealer = sealer
        self.identity = local.identity
        self.registrationId = local.registrationId
        self.logTruncation = logTruncation
        truncateLog()
    }

    /// This store as the bundle `SessionCipher` and `SessionBuilder` take, with its transaction runner.
    public var stores: SignalStores {
        SignalStores(sessions: self, preKeys: self, signedPreKeys: self, identities: self, transactions: self)
    }

    /// Runs `body` on a reader connection (the writer for `:memory:`).
    func read<T>(_ operation: String, _ body: (SQLiteSignalTables) throws -> T) throws -> T {
        try refuseReentrantUse(operation)
        return try SQLiteStorageError.translating(operation) {
            try pool.read { try body(SQLiteSignalTables($0, sealer)) }
        }
    }

    /// Runs `body` in one transaction on the writer connection. Then counts the commit for the
    /// log's truncation.
    func write<T>(_ operation: String, _ body: (SQLiteSignalTables) throws -> T) throws -> T {
        try refuseReentrantUse(operation)
        let result = try SQLiteStorageError.translating(operation) {
            try pool.write { try body(SQLiteSignalTables($0, sealer)) }
        }
        countCommit()
        committed()
        return result
    }

    /// Checkpoints and truncates the write-ahead log now, whatever the policy: for an app about
    /// to be suspended, or before the files are copied.
    /// - Throws: `.storageFailure` when the checkpoint cannot run.
    public func flushLog() throws {
        guard !pool.isInMemory else { return }
        logState.withLock { $0.commits = 0 }
        try SQLiteStorageError.translating("truncate the write-ahead log") {
            try pool.writeWithoutTransaction { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        }
    }

    /// Counts a transaction that committed (`transactionsCommitted`).
    func countCommit() { commitCount.withLock { $0 += 1 } }

    /// A transaction committed: the log is truncated now when the policy's commit count is
    /// reached, else a timer truncates it within the policy's window.
    func committed() {
        guard !pool.isInMemory else { return }
        let limit = logTruncation.maximumCommits
        let (now, arm) = logState.withLock { state -> (Bool, Bool) in
            state.commits += 1
            if state.commits >= limit {
                state.commits = 0
                return (true, false)
            }
            defer { state.timerArmed = true }
            return (false, !state.timerArmed)
        }
        if now {
            truncateLog()
        } else if arm {
            let delay = DispatchTimeInterval.nanoseconds(Int(logTruncation.window.wholeNanoseconds))
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) {
                [weak self] in self?.windowEnded()
            }
        }
    }

    /// The window after a commit has passed: commits not yet truncated are, now.
    private func windowEnded() {
        let pending = logState.withLock { state -> Bool in
            state.timerArmed = false
            defer { state.commits = 0 }
            return state.commits > 0
        }
        if pending { truncateLog() }
    }

    /// Copies committed pages into the database file and truncates the write-ahead log, so the
    /// record versions a commit replaced or deleted (old sessions, used prekeys) do not stay in
    /// it. Best effort: a reader in the middle of a read makes it give up, and the next commit
    /// tries again; the commit it follows has succeeded either way.
    func truncateLog() {
        guard !pool.isInMemory else { return }
        // A checkpoint cannot run inside a transaction.
        _ = try? pool.writeWithoutTransaction { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Inside its own transaction the store must be reached through the stores handed to the
    /// transaction: the writer connection is taken, and waiting for it would deadlock.
    private func refuseReentrantUse(_ operation: String) throws {
        if SQLiteSignalTransaction.activeStore == ObjectIdentifier(self) {
            throw SignalProtocolError(
                .storageFailure,
                "signal store could not \(operation): called inside its own transaction; use the transaction's stores")
        }
    }
}
