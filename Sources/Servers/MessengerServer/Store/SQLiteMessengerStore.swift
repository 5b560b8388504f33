import CourierCore

/// The embedded messenger store: one SQLite file in WAL mode (or an in-memory database).
///
/// Sends commit with `synchronous=FULL`: a 200 means the rows are on disk. Acknowledgements
/// commit with `NORMAL`: a crash of the machine (not of the process) may forget the last ones,
/// which only redelivers envelopes the device already has and drops by `clientMessageId`.
public final class SQLiteMessengerStore: MessengerStore {
    let pool: DatabasePool
    let synchronous: String
    let batcher = SendBatcher()

    /// Opens (creating and migrating) the store at `path`; `:memory:` keeps it in memory.
    /// - Throws: `DatabaseError`.
    public init(path: String, options: Database.Options = .init()) throws {
        pool = try DatabasePool(path: path, options: options, migrator: SQLiteMessengerSchema.migrator)
        synchronous = options.synchronous
    }

    public func createAccount(_ accountId: String, device: DeviceRecord) throws(MessengerStoreError) {
        try storing {
            try pool.transaction { db in
                let exists = try db.query("SELECT 1 FROM accounts WHERE id = ?1", [.text(accountId)]) { _ in true }
                if !exists.isEmpty { throw MessengerStoreError(.conflict, "account \(accountId) exists") }
                try db.run(
                    "INSERT INTO accounts(id, created_at) VALUES (?1, ?2)",
                    [.text(accountId), .integer(device.createdAt)])
                try insert(device, accountId: accountId, in: db)
            }
        }
    }

    func insert(_ device: DeviceRecord, accountId: String, in db: Database) throws {
        try db.run(
            """
            INSERT INTO devices(account_id, \(MessengerRows.deviceColumns))
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """, MessengerRows.deviceValues(device, accountId: accountId))
    }

    public func storeLinkingToken(accountId: String, tokenHash: [UInt8], expiresAt: Int64)
        throws(MessengerStoreError)
    {
        try storing {
            try pool.write { db in
                try db.run(
                    "INSERT INTO linking_tokens(token_hash, account_id, expires_at) VALUES (?1, ?2, ?3)",
                    [.blob(tokenHash), .text(accountId), .integer(expiresAt)])
            }
        }
    }

    public func linkingTokenIsValid(tokenHash: [UInt8], now: Int64) throws(MessengerStoreError) -> Bool {
        try storing {
            try pool.read { db in
                try !db.query(
                    "SELECT 1 FROM linking_tokens WHERE token_hash = ?1 AND expires_at > ?2",
                    [.blob(tokenHash), .integer(now)]
                ) { _ in true }.isEmpty
            }
        }
    }

    public func linkDevice(tokenHash: [UInt8], device: DeviceRecord, maximumDevices: Int, now: Int64)
        throws(MessengerStoreError) -> (accountId: String, deviceId: Int)
    {
        try storing {
            try pool.transaction { db in
                let owners = try db.query(
                    "DELETE FROM linking_tokens WHERE token_hash = ?1 RETURNING account_id, expires_at",
                    [.blob(tokenHash)]
                ) { row in (row.text(0) ?? "", row.int(1)) }
                guard let owner = owners.first, owner.1 > now else {
                    throw MessengerStoreError(.notFound, "unknown, used or expired linking token")
                }
                let ids = try db.query(
                    "SELECT device_id FROM devices WHERE account_id = ?1", [.text(owner.0)]
                ) { Int($0.int(0)) }
                guard ids.count < maximumDevices else {
                    throw MessengerStoreError(.limitReached, "the account has \(ids.count) devices")
                }
                var linked = device
                linked.id = (ids.max() ?? 0) + 1
                try insert(linked, accountId: owner.0, in: db)
                return (owner.0, linked.id)
            }
        }
    }

    public func device(accountId: String, deviceId: Int) throws(MessengerStoreError) -> DeviceRecord? {
        try storing {
            try pool.read { db in
                try db.query(
                    "SELECT \(MessengerRows.deviceColumns) FROM devices WHERE account_id = ?1 AND device_id = ?2",
                    [.text(accountId), .integer(Int64(deviceId))], row: MessengerRows.device
                ).first
            }
        }
    }

    public func replacePasswordHash(accountId: String, deviceId: Int, expected: String, with replacement: String)
        throws(MessengerStoreError) -> Bool
    {
        try storing {
            try pool.write { db in
                try db.run(
                    "UPDATE devices SET password_hash = ?4 WHERE account_id = ?1 AND device_id = ?2 AND password_hash = ?3",
                    [.text(accountId), .integer(Int64(deviceId)), .text(expected), .text(replacement)])
                return db.changes > 0
            }
        }
    }

    public func devices(accountId: String) throws(MessengerStoreError) -> [DeviceRecord] {
        try storing {
            try pool.read { db in
                try db.query(
                    "SELECT \(MessengerRows.deviceColumns) FROM devices WHERE account_id = ?1 ORDER BY device_id",
                    [.text(accountId)], row: MessengerRows.device)
            }
        }
    }

    public func removeDevice(accountId: String, deviceId: Int) throws(MessengerStoreError) -> Bool {
        try storing {
            try pool.transaction { db in
                let key: [SQLValue] = [.text(accountId), .integer(Int64(deviceId))]
                try db.run("DELETE FROM devices WHERE account_id = ?1 AND device_id = ?2", key)
                let existed = db.changes > 0
                try db.run("DELETE FROM signed_prekeys WHERE account_id = ?1 AND device_id = ?2", key)
                try db.run("DELETE FROM one_time_prekeys WHERE account_id = ?1 AND device_id = ?2", key)
                try db.run("DELETE FROM mailbox WHERE account_id = ?1 AND device_id = ?2", key)
                return existed
            }
        }
    }

    public func setPushEndpoint(_ endpoint: PushEndpoint?, accountId: String, deviceId: Int)
        throws(MessengerStoreError)
    {
        try storing {
            try pool.write { db in
                try db.run(
                    "UPDATE devices SET push_kind = ?3, push_address = ?4 WHERE account_id = ?1 AND device_id = ?2",
                    [
                        .text(accountId), .integer(Int64(deviceId)), endpoint.map { .text($0.kind.rawValue) } ?? .null,
                        endpoint.map { .text($0.address) } ?? .null,
                    ])
            }
        }
    }

    public func identityKey(accountId: String) throws(MessengerStoreError) -> [UInt8]? {
        try storing {
            try pool.read { db in
                try db.query("SELECT identity_key FROM accounts WHERE id = ?1", [.text(accountId)]) { row in
                    row.isNull(0) ? nil : row.bytes(0)
                }.first ?? nil
            }
        }
    }
}

extension SQLiteMessengerStore {
    /// Creates accounts whose one device each uses `device`'s record, in one transaction: for
    /// benchmarks that need thousands of devices without thousands of commits.
    package func createAccounts(_ accountIds: [String], device: DeviceRecord) throws {
        try pool.transaction { db in
            for accountId in accountIds {
                try db.run(
                    "INSERT INTO accounts(id, created_at) VALUES (?1, ?2)",
                    [.text(accountId), .integer(device.createdAt)])
                try insert(device, accountId: accountId, in: db)
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
