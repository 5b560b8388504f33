import CourierCore
import CourierPostgres

/// The messenger store on PostgreSQL, for several server instances sharing one database: the
/// same behaviour as `SQLiteMessengerStore` (the same tests run against both), with the
/// concurrency PostgreSQL needs spelled out:
/// - a one-time prekey is taken with `FOR UPDATE SKIP LOCKED`, so concurrent fetches each get a
///   different key instead of most of them getting none;
/// - mailbox ids come from a per-device counter row (`PostgresMessengerSchema`), so the catch-up
///   cursor sees rows in commit order;
/// - sends keep the group commit, each in a savepoint; a batch that loses a deadlock is retried.
///
/// Its methods block the calling thread for the round trips to the server, as the SQLite store
/// blocks for its disk.
public final class PostgresMessengerStore: MessengerStore {
    let pool: PostgresPool
    let batcher = SendBatcher()

    /// Connects to `url` (`postgres://…`) with up to `connections` connections and migrates the
    /// messenger's tables.
    /// - Throws: `PostgresError`, or `DatabaseSchemaError` when a newer build migrated the database.
    public init(url: String, connections: Int = 8) throws {
        pool = try PostgresPool(url: url, size: connections, migrator: PostgresMessengerSchema.migrator)
    }

    public func createAccount(_ accountId: String, device: DeviceRecord) throws(MessengerStoreError) {
        try storing {
            try pool.write { db in
                let created = try db.run(
                    "INSERT INTO accounts(id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
                    [.text(accountId), .integer(device.createdAt)])
                if created == 0 { throw MessengerStoreError(.conflict, "account \(accountId) exists") }
                try insert(device, accountId: accountId, in: db)
            }
        }
    }

    func insert(_ device: DeviceRecord, accountId: String, in db: PostgresConnection) throws {
        try db.run(
            "INSERT INTO devices(account_id, \(MessengerRows.deviceColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            MessengerRows.deviceValues(device, accountId: accountId))
    }

    public func storeLinkingToken(accountId: String, tokenHash: [UInt8], expiresAt: Int64)
        throws(MessengerStoreError)
    {
        try storing {
            try pool.withConnection { db in
                try db.run(
                    "INSERT INTO linking_tokens(token_hash, account_id, expires_at) VALUES ($1, $2, $3)",
                    [.blob(tokenHash), .text(accountId), .integer(expiresAt)])
            }
        }
    }

    public func linkingTokenIsValid(tokenHash: [UInt8], now: Int64) throws(MessengerStoreError) -> Bool {
        try storing {
            try pool.withConnection { db in
                try !db.query(
                    "SELECT 1 FROM linking_tokens WHERE token_hash = $1 AND expires_at > $2",
                    [.blob(tokenHash), .integer(now)]
                ) { _ in true }.isEmpty
            }
        }
    }

    public func linkDevice(tokenHash: [UInt8], device: DeviceRecord, maximumDevices: Int, now: Int64)
        throws(MessengerStoreError) -> (accountId: String, deviceId: Int)
    {
        try storing {
            try pool.write { db in
                let owners = try db.query(
                    "DELETE FROM linking_tokens WHERE token_hash = $1 RETURNING account_id, expires_at",
                    [.blob(tokenHash)]
                ) { row in (row.text(0) ?? "", row.int(1)) }
                guard let owner = owners.first, owner.1 > now else {
                    throw MessengerStoreError(.notFound, "unknown, used or expired linking token")
                }
                // The account row, locked: two links at once take different device ids.
                _ = try db.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [.text(owner.0)]) { _ in true }
                let ids = try db.query("SELECT device_id FROM devices WHERE account_id = $1", [.text(owner.0)]) {
                    Int($0.int(0))
                }
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
            try pool.withConnection { db in
                try db.query(
                    "SELECT \(MessengerRows.deviceColumns) FROM devices WHERE account_id = $1 AND device_id = $2",
                    [.text(accountId), .integer(Int64(deviceId))], row: MessengerRows.device
                ).first
            }
        }
    }

    public func replacePasswordHash(accountId: String, deviceId: Int, expected: String, with replacement: String)
        throws(MessengerStoreError) -> Bool
    {
        try storing {
            try pool.withConnection { db in
                try db.run(
                    "UPDATE devices SET password_hash = $4 WHERE account_id = $1 AND device_id = $2 AND password_hash = $3",
                    [.text(accountId), .integer(Int64(deviceId)), .text(expected), .text(replacement)]) > 0
            }
        }
    }

    public func devices(accountId: String) throws(MessengerStoreError) -> [DeviceRecord] {
        try storing {
            try pool.withConnection { db in
                try db.query(
                    "SELECT \(MessengerRows.deviceColumns) FROM devices WHERE account_id = $1 ORDER BY device_id",
                    [.text(accountId)], row: MessengerRows.device)
            }
        }
    }

    public func removeDevice(accountId: String, deviceId: Int) throws(MessengerStoreError) -> Bool {
        try storing {
            try pool.write { db in
                let key: [SQLValue] = [.text(accountId), .integer(Int64(deviceId))]
                let existed = try db.run("DELETE FROM devices WHERE account_id = $1 AND device_id = $2", key) > 0
                for table in ["signed_prekeys", "one_time_prekeys", "mailbox"] {
                    try db.run("DELETE FROM \(table) WHERE account_id = $1 AND device_id = $2", key)
                }
                return existed
            }
        }
    }

    public func setPushEndpoint(_ endpoint: PushEndpoint?, accountId: String, deviceId: Int)
        throws(MessengerStoreError)
    {
        try storing {
            try pool.withConnection { db in
                try db.run(
                    "UPDATE devices SET push_kind = $3, push_address = $4 WHERE account_id = $1 AND device_id = $2",
                    [
                        .text(accountId), .integer(Int64(deviceId)), endpoint.map { .text($0.kind.rawValue) } ?? .null,
                        endpoint.map { .text($0.address) } ?? .null,
                    ])
            }
        }
    }

    public func identityKey(accountId: String) throws(MessengerStoreError) -> [UInt8]? {
        try storing {
            try pool.withConnection { db in
                try db.query("SELECT identity_key FROM accounts WHERE id = $1", [.text(accountId)]) { row in
                    row.isNull(0) ? nil : row.bytes(0)
                }.first ?? nil
            }
        }
    }
}
