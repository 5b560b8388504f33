internal import CourierCore

/// Every Signal store on one SQLite file (or `:memory:`): sessions, one-time and signed prekeys,
/// identities with trust decisions, sender keys, and this device's identity.
///
/// Records are stored in the module's `Storage/` format as blobs. `stores` carries a transaction
/// runner, so a decrypt commits the new session state, the consumed one-time prekey, the saved
/// identity and the caller's `accept` closure in one `BEGIN IMMEDIATE … COMMIT`, or rolls all of
/// it back. Deleted and overwritten rows are zeroed on disk (`secure_delete`).
///
/// Errors are `SignalProtocolError`: `.storageFailure` for the database (the `DatabaseError` in
/// `underlying`), `.corruptRecord` for a row that does not decode.
public final class SQLiteSignalStore: Sendable {
    /// The file the store was opened with (`:memory:` for a private in-memory database).
    public let path: String
    /// How changed remote identity keys are treated.
    public let policy: IdentityTrustPolicy
    let pool: DatabasePool
    let identity: IdentityKeyPair
    let registrationId: UInt32

    /// Opens (creating if needed) the store at `path` for the device `identity`; on an existing
    /// file the stored identity must be the same.
    /// - Throws: `.storageFailure`; `.invalidArgument` when the file holds another identity.
    public convenience init(
        path: String, identity: IdentityKeyPair, registrationId: UInt32, policy: IdentityTrustPolicy = .trustOnFirstUse
    ) throws {
        try self.init(path: path, policy: policy, newIdentity: (identity, registrationId), options: .init())
    }

    /// Reopens the store at `path` with the identity stored in it.
    /// - Throws: `.storageFailure`; `.invalidArgument` when the file holds no identity yet.
    public convenience init(path: String, policy: IdentityTrustPolicy = .trustOnFirstUse) throws {
        try self.init(path: path, policy: policy, newIdentity: nil, options: .init())
    }

    /// Reopens with explicit connection options (tests bound the file size with them).
    convenience init(path: String, policy: IdentityTrustPolicy, options: Database.Options) throws {
        try self.init(path: path, policy: policy, newIdentity: nil, options: options)
    }

    private init(
        path: String, policy: IdentityTrustPolicy, newIdentity: (IdentityKeyPair, UInt32)?, options: Database.Options
    ) throws {
        let pool = try SQLiteStorageError.translating("open \(path)") {
            let pool = try DatabasePool(path: path, options: options, migrator: SQLiteSignalSchema.migrator)
            try pool.write { try $0.execute("PRAGMA secure_delete = ON") }
            return pool
        }
        let local = try SQLiteStorageError.translating("load the local identity") {
            try pool.transaction { database in
                let tables = SQLiteSignalTables(database)
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
        self.identity = local.identity
        self.registrationId = local.registrationId
    }

    /// This store as the bundle `SessionCipher` and `SessionBuilder` take, with its transaction runner.
    public var stores: SignalStores {
        SignalStores(sessions: self, preKeys: self, signedPreKeys: self, identities: self, transactions: self)
    }

    /// Runs `body` on a reader connection (the writer for `:memory:`).
    func read<T>(_ operation: String, _ body: (SQLiteSignalTables) throws -> T) throws -> T {
        try refuseReentrantUse(operation)
        return try SQLiteStorageError.translating(operation) { try pool.read { try body(SQLiteSignalTables($0)) } }
    }

    /// Runs `body` on the writer connection; each statement commits on its own.
    func write<T>(_ operation: String, _ body: (SQLiteSignalTables) throws -> T) throws -> T {
        try refuseReentrantUse(operation)
        return try SQLiteStorageError.translating(operation) { try pool.write { try body(SQLiteSignalTables($0)) } }
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
