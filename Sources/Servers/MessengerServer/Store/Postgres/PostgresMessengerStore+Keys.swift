import CourierCore
import CourierPostgres

extension PostgresMessengerStore {
    public func storeKeys(
        accountId: String, deviceId: Int, identityKey: [UInt8], signedPreKey: SignedPreKeyUpload?,
        oneTimePreKeys: [OneTimePreKeyUpload]
    ) throws(MessengerStoreError) {
        try storing {
            try pool.write { db in
                let stored = try db.query(
                    "SELECT identity_key FROM accounts WHERE id = $1 FOR UPDATE", [.text(accountId)]
                ) { row in row.isNull(0) ? nil : row.bytes(0) }
                guard let current = stored.first else {
                    throw MessengerStoreError(.notFound, "no account \(accountId)")
                }
                if let current, current != identityKey, deviceId != 1 {
                    throw MessengerStoreError(.conflict, "only the first device may change the account's identity key")
                }
                if current != identityKey {
                    try db.run(
                        "UPDATE accounts SET identity_key = $2 WHERE id = $1", [.text(accountId), .blob(identityKey)])
                }
                let device: [SQLValue] = [.text(accountId), .integer(Int64(deviceId))]
                if let signedPreKey {
                    try db.run(
                        """
                        INSERT INTO signed_prekeys(account_id, device_id, key_id, public_key, signature)
                        VALUES ($1, $2, $3, $4, $5)
                        ON CONFLICT(account_id, device_id) DO UPDATE SET
                            key_id = excluded.key_id, public_key = excluded.public_key, signature = excluded.signature
                        """,
                        device + [
                            .integer(Int64(signedPreKey.keyId)), .blob(signedPreKey.publicKey),
                            .blob(signedPreKey.signature),
                        ])
                }
                for key in oneTimePreKeys {
                    try db.run(
                        """
                        INSERT INTO one_time_prekeys(account_id, device_id, key_id, public_key) VALUES ($1, $2, $3, $4)
                        ON CONFLICT(account_id, device_id, key_id) DO UPDATE SET public_key = excluded.public_key
                        """, device + [.integer(Int64(key.keyId)), .blob(key.publicKey)])
                }
            }
        }
    }

    public func oneTimePreKeyCount(accountId: String, deviceId: Int) throws(MessengerStoreError) -> Int {
        try storing {
            try pool.withConnection { db in
                try db.query(
                    "SELECT count(*) FROM one_time_prekeys WHERE account_id = $1 AND device_id = $2",
                    [.text(accountId), .integer(Int64(deviceId))]
                ) { Int($0.int(0)) }.first ?? 0
            }
        }
    }

    /// The one-time prekey query that hands each key to exactly one caller without making
    /// concurrent callers come away empty: a plain `LIMIT 1` subquery lets every concurrent
    /// caller pick the same first key, and all but one then delete nothing; `SKIP LOCKED` moves
    /// each to the next key no one holds.
    static let takeOneTimePreKey = """
        DELETE FROM one_time_prekeys WHERE account_id = $1 AND device_id = $2 AND key_id = (
            SELECT key_id FROM one_time_prekeys WHERE account_id = $1 AND device_id = $2
            ORDER BY key_id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING key_id, public_key
        """

    public func takePreKeys(accountId: String, deviceId: Int?, oneTimePreKeys: Bool) throws(MessengerStoreError)
        -> [DevicePreKeys]
    {
        try storing {
            try pool.write { db in
                var devices = try db.query(
                    "SELECT device_id, registration_id FROM devices WHERE account_id = $1 ORDER BY device_id",
                    [.text(accountId)]
                ) { row in DevicePreKeys(deviceId: Int(row.int(0)), registrationId: Int(row.int(1))) }
                if let deviceId { devices = devices.filter { $0.deviceId == deviceId } }
                for index in devices.indices {
                    let key: [SQLValue] = [.text(accountId), .integer(Int64(devices[index].deviceId))]
                    devices[index].signedPreKey = try db.query(
                        "SELECT key_id, public_key, signature FROM signed_prekeys WHERE account_id = $1 AND device_id = $2",
                        key, row: MessengerRows.signedPreKey
                    ).first
                    guard oneTimePreKeys else { continue }
                    devices[index].oneTimePreKey = try db.query(
                        Self.takeOneTimePreKey, key, row: MessengerRows.oneTimePreKey
                    ).first
                }
                return devices
            }
        }
    }

    public func deviceOverview(limit: Int) throws(MessengerStoreError) -> [DeviceMailboxSummary] {
        try storing {
            try pool.read { db in
                try db.query(
                    """
                    SELECT d.account_id, d.device_id, d.name, d.push_kind, count(m.id), min(m.expires_at)
                    FROM devices d LEFT JOIN mailbox m ON m.account_id = d.account_id AND m.device_id = d.device_id
                    GROUP BY d.account_id, d.device_id ORDER BY d.account_id, d.device_id LIMIT $1
                    """, [.integer(Int64(limit))], row: MessengerRows.overview)
            }
        }
    }
}
