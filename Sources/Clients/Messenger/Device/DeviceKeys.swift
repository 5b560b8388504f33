import CourierCore
import SignalProtocol

/// Generates and keeps this device's prekeys: a signed prekey rotated every
/// `signedPreKeyLifetime` (the previous one stays for messages already on their way), and
/// batches of one-time prekeys with ids that continue where the last batch ended. Private halves
/// go only into the sealed Signal store, in the same transaction as the id counters.
enum DeviceKeys {
    /// One-time prekeys per upload (the server's maximum).
    static let batchSize = 100

    /// Makes the first signed prekey and batch; returns the upload body.
    static func initial(stores: SignalStores, db: Database, nowMilliseconds: Int64) throws -> JSONValue {
        let identity = try stores.identities.identityKeyPair()
        let signed = try SignedPreKeyRecord.generate(identity: identity, id: 1, timestamp: UInt64(nowMilliseconds))
        try stores.signedPreKeys.storeSignedPreKey(signed)
        let preKeys = try KeyHelper.generatePreKeys(start: 0, count: batchSize)
        for key in preKeys { try stores.preKeys.storePreKey(key) }
        try db.run(
            """
            INSERT OR REPLACE INTO messenger_key_state (singleton, next_prekey_id, signed_prekey_id,
                signed_prekey_created, previous_signed_prekey_id) VALUES (1, ?, 1, ?, NULL)
            """, [.integer(Int64(batchSize)), .integer(nowMilliseconds)])
        return KeyDirectoryJSON.upload(identity: identity.identityKey, signedPreKey: signed, preKeys: preKeys)
    }

    /// `count` new one-time prekeys after the last batch; returns the upload body.
    static func refill(count: Int, stores: SignalStores, db: Database) throws -> JSONValue {
        let next = try db.query("SELECT next_prekey_id FROM messenger_key_state WHERE singleton = 1") { $0.int(0) }
        let start = UInt32(truncatingIfNeeded: next.first ?? 0)
        let preKeys = try KeyHelper.generatePreKeys(start: start, count: count)
        for key in preKeys { try stores.preKeys.storePreKey(key) }
        try db.run(
            "UPDATE messenger_key_state SET next_prekey_id = ? WHERE singleton = 1",
            [.integer((Int64(start) + Int64(count)) % Int64(KeyHelper.preKeyIdModulus))])
        return KeyDirectoryJSON.upload(
            identity: try stores.identities.identityKeyPair().identityKey, signedPreKey: nil, preKeys: preKeys)
    }

    /// A new signed prekey when the current one is older than `lifetime`; returns the upload body,
    /// or nil when no rotation is due. The previous key id is remembered (its record kept), so a
    /// session opened against it a moment ago still starts.
    static func rotateIfDue(lifetime: Duration, stores: SignalStores, db: Database, nowMilliseconds: Int64) throws
        -> JSONValue?
    {
        let rows = try db.query(
            "SELECT signed_prekey_id, signed_prekey_created FROM messenger_key_state WHERE singleton = 1"
        ) { ($0.int(0), $0.int(1)) }
        guard let (current, created) = rows.first else { return nil }
        let lifetimeMilliseconds = lifetime.components.seconds * 1000
        guard nowMilliseconds - created >= lifetimeMilliseconds else { return nil }
        let id = UInt32(truncatingIfNeeded: current % Int64(KeyHelper.preKeyIdModulus) + 1)
        let identity = try stores.identities.identityKeyPair()
        let signed = try SignedPreKeyRecord.generate(identity: identity, id: id, timestamp: UInt64(nowMilliseconds))
        try stores.signedPreKeys.storeSignedPreKey(signed)
        try db.run(
            """
            UPDATE messenger_key_state SET signed_prekey_id = ?, signed_prekey_created = ?,
                previous_signed_prekey_id = signed_prekey_id WHERE singleton = 1
            """, [.integer(Int64(id)), .integer(nowMilliseconds)])
        return KeyDirectoryJSON.upload(identity: identity.identityKey, signedPreKey: signed, preKeys: [])
    }

    /// The signed prekey id in use now.
    static func currentSignedPreKeyId(db: Database) throws -> UInt32? {
        try db.query("SELECT signed_prekey_id FROM messenger_key_state WHERE singleton = 1") {
            UInt32(truncatingIfNeeded: $0.int(0))
        }.first
    }
}
