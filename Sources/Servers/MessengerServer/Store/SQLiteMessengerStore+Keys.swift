import CourierCore

extension SQLiteMessengerStore {
    public func storeKeys(
        accountId: String, deviceId: Int, identityKey: [UInt8], signedPreKey: SignedPreKeyUpload?,
        oneTimePreKeys: [OneTimePreKeyUpload]
    ) throws(MessengerStoreError) {
        try storing {
            try pool.transaction { db in
                let stored = try db.query("SELECT identity_key FROM accounts WHERE id = ?1", [.text(accountId)]) {
                    row in row.isNull(0) ? nil : row.bytes(0)
                }
                guard let current = stored.first else {
                    throw MessengerStoreError(.notFound, "no account \(accountId)")
                }
                if let current, current != identityKey, deviceId != 1 {
                    throw MessengerStoreError(.conflict, "only the first device may change the account's identity key")
                }
                if current != identityKey {
                    try db.run(
                        "UPDATE accounts SET identity_key = ?2 WHERE id = ?1", [.text(accountId), .blob(identityKey)])
                }
                let device: [SQLValue] = [.text(accountId), .integer(Int64(deviceId))]
                if let signedPreKey {
                    try db.run(
                        """
                        INSERT INTO signed_prekeys(account_id, device_id, key_id, public_key, signature)
                        VALUES (?1, ?2, ?3, ?4, ?5)
                        ON CONFLICT(account_id, device_id) DO UPDATE SET
                            key_id = excluded.key_id, public_key = excluded.public_key, signature = excluded.signature
                        """,
                        device + [
                            .integer(Int64(signedPreKey.keyId)), .blob(signedPreKey.publicKey),
                            .blob(signedPreKey.signature),
                        ])
                }
                let insert = try db.cachedStatement(
                    """
                    INSERT INTO one_time_prekeys(account_id, device_id, key_id, public_key) VALUES (?1, ?2, ?3, ?4)
                    ON CONFLICT(account_id, device_id, key_id) DO UPDATE SET public_key = excluded.public_key
                    """)
                for key in oneTimePreKeys {
                    try insert.execute(device + [.integer(Int64(key.keyId)), .blob(key.publicKey)])
                }
            }
        }
    }

    public func oneTimePreKeyCount(accountId: String, deviceId: Int) throws(MessengerStoreError) -> Int {
        try storing {
            try pool.read { db in
                try db.query(
                    "SELECT count(*) FROM one_time_prekeys WHERE account_id = ?1 AND device_id = ?2",
                    [.text(accountId), .integer(Int64(deviceId))]
                ) { Int($0.int(0)) }.first ?? 0
            }
        }
    }

    public func takePreKeys(accountId: String, deviceId: Int?, oneTimePreKeys: Bool) throws(MessengerStoreError)
        -> [DevicePreKeys]
    {
        try storing {
            // A write transaction: the one-time prekey is read and deleted by one caller at a time.
            try pool.transaction { db in
                var devices = try db.query(
                    "SELECT device_id, registration_id FROM devices WHERE account_id = ?1 ORDER BY device_id",
                    [.text(accountId)]
                ) { row in
                    DevicePreKeys(deviceId: Int(row.int(0)), registrationId: Int(row.int(1)))
                }
                if let deviceId { devices = devices.filter { $0.deviceId == deviceId } }
                for index in devices.indices {
                    let key: [SQLValue] = [.text(accountId), .integer(Int64(devices[index].deviceId))]
                    devices[index].signedPreKey = try db.query(
                        "SELECT key_id, public_key, signature FROM signed_prekeys WHERE account_id = ?1 AND device_id = ?2",
                        key, row: MessengerRows.signedPreKey
                    ).first
                    guard oneTimePreKeys else { continue }
                    devices[index].oneTimePreKey = try db.query(
                        """
                        DELETE FROM one_time_prekeys WHERE account_id = ?1 AND device_id = ?2 AND key_id = (
                            SELECT key_id FROM one_time_prekeys WHERE account_id = ?1 AND device_id = ?2
                            ORDER BY key_id LIMIT 1)
                        RETURNING key_id, public_key
                        """, key, row: MessengerRows.oneTimePreKey
                    ).first
                }
                return devices
            }
        }
    }
}
