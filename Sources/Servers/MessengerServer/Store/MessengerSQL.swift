import CourierCore

/// The messenger store's logic, written once against `SQLConnection` with statements written
/// once for both engines (one schema, two engines). The few places the engines differ are
/// statements that lock rows, written once too (`SQLStatement(lockingRows:)`: a `FOR UPDATE`
/// PostgreSQL needs where SQLite's writers take turns anyway, `SKIP LOCKED` for one-time
/// prekeys), and the mailbox rows, which each store inserts
/// its own way (`MessengerDatabaseStore.insertMailboxRows`).
enum MessengerSQL {
    static let insertAccount = SQLStatement(
        "INSERT INTO accounts(id, created_at) VALUES ($1, $2) ON CONFLICT(id) DO NOTHING")
    static let insertDevice = SQLStatement(
        "INSERT INTO devices(account_id, \(MessengerRows.deviceColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
    static let insertLinkingToken = SQLStatement(
        "INSERT INTO linking_tokens(token_hash, account_id, expires_at) VALUES ($1, $2, $3)")
    static let validLinkingToken = SQLStatement(
        "SELECT 1 FROM linking_tokens WHERE token_hash = $1 AND expires_at > $2")
    static let takeLinkingToken = SQLStatement(
        "DELETE FROM linking_tokens WHERE token_hash = $1 RETURNING account_id, expires_at")
    /// The account's row, locked until commit on PostgreSQL: two links at once take different
    /// device ids, two key uploads do not race on the identity key.
    static let lockedIdentityKey = SQLStatement(
        lockingRows: "SELECT identity_key FROM accounts WHERE id = $1 FOR UPDATE")
    static let identityKey = SQLStatement("SELECT identity_key FROM accounts WHERE id = $1")
    static let deviceIds = SQLStatement("SELECT device_id FROM devices WHERE account_id = $1")
    static let device = SQLStatement(
        "SELECT \(MessengerRows.deviceColumns) FROM devices WHERE account_id = $1 AND device_id = $2")
    static let devices = SQLStatement(
        "SELECT \(MessengerRows.deviceColumns) FROM devices WHERE account_id = $1 ORDER BY device_id")
    static let replacePasswordHash = SQLStatement(
        "UPDATE devices SET password_hash = $4 WHERE account_id = $1 AND device_id = $2 AND password_hash = $3")
    static let deleteDeviceRows = ["devices", "signed_prekeys", "one_time_prekeys", "mailbox"].map {
        SQLStatement("DELETE FROM \($0) WHERE account_id = $1 AND device_id = $2")
    }
    static let setPushEndpoint = SQLStatement(
        "UPDATE devices SET push_kind = $3, push_address = $4 WHERE account_id = $1 AND device_id = $2")
    /// Takes the device's push slot: changes its row only when no push went out since `$4`
    /// (now minus the coalescing interval), so of the instances that try at once one wins.
    static let claimPush = SQLStatement(
        """
        UPDATE devices SET last_push_at = $3
        WHERE account_id = $1 AND device_id = $2 AND (last_push_at IS NULL OR last_push_at <= $4)
        """)
    static let clearPushClaim = SQLStatement(
        "UPDATE devices SET last_push_at = NULL WHERE account_id = $1 AND device_id = $2")
    static let setIdentityKey = SQLStatement("UPDATE accounts SET identity_key = $2 WHERE id = $1")
    static let upsertSignedPreKey = SQLStatement(
        """
        INSERT INTO signed_prekeys(account_id, device_id, key_id, public_key, signature) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT(account_id, device_id) DO UPDATE SET
            key_id = excluded.key_id, public_key = excluded.public_key, signature = excluded.signature
        """)
    static let upsertOneTimePreKey = SQLStatement(
        """
        INSERT INTO one_time_prekeys(account_id, device_id, key_id, public_key) VALUES ($1, $2, $3, $4)
        ON CONFLICT(account_id, device_id, key_id) DO UPDATE SET public_key = excluded.public_key
        """)
    static let oneTimePreKeyCount = SQLStatement(
        "SELECT count(*) FROM one_time_prekeys WHERE account_id = $1 AND device_id = $2")
    static let registrations = SQLStatement(
        "SELECT device_id, registration_id FROM devices WHERE account_id = $1 ORDER BY device_id")
    static let signedPreKey = SQLStatement(
        "SELECT key_id, public_key, signature FROM signed_prekeys WHERE account_id = $1 AND device_id = $2")
    /// Hands each key to exactly one caller. On PostgreSQL a plain `LIMIT 1` subquery lets every
    /// concurrent caller pick the same first key, and all but one then delete nothing: `SKIP
    /// LOCKED` moves each to the next key no one holds. SQLite's writers take turns.
    static let takeOneTimePreKey = SQLStatement(
        lockingRows: """
            DELETE FROM one_time_prekeys WHERE account_id = $1 AND device_id = $2 AND key_id = (
                SELECT key_id FROM one_time_prekeys WHERE account_id = $1 AND device_id = $2
                ORDER BY key_id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING key_id, public_key
            """)
    static let earlierSends = SQLStatement(
        "SELECT destination_account, server_seq FROM sends WHERE account_id = $1 AND client_message_id = $2")
    /// The destination's devices, locked until commit on PostgreSQL (in id order, as every
    /// sender locks them): the mailbox ids taken for them become visible in the order given.
    static let destinationDevices = SQLStatement(
        lockingRows:
            "SELECT device_id, registration_id FROM devices WHERE account_id = $1 ORDER BY device_id FOR UPDATE")
    static let nextConversationSeq = SQLStatement(
        """
        INSERT INTO conversations(id, last_seq) VALUES ($1, 1)
        ON CONFLICT(id) DO UPDATE SET last_seq = conversations.last_seq + 1 RETURNING last_seq
        """)
    static let insertSend = SQLStatement(
        """
        INSERT INTO sends(account_id, client_message_id, destination_account, server_seq, expires_at)
        VALUES ($1, $2, $3, $4, $5)
        """)
    static let mailbox = SQLStatement(
        "SELECT id, envelope FROM mailbox WHERE account_id = $1 AND device_id = $2 AND id > $3 ORDER BY id LIMIT $4")
    static let expireMailbox = SQLStatement("DELETE FROM mailbox WHERE expires_at < $1")
    static let expireSends = SQLStatement("DELETE FROM sends WHERE expires_at < $1")
    static let expireLinkingTokens = SQLStatement("DELETE FROM linking_tokens WHERE expires_at < $1")
    static let expireAttachments = SQLStatement("DELETE FROM attachments WHERE expires_at < $1 RETURNING id")
    static let createAttachment = SQLStatement(
        "INSERT INTO attachments(id, account_id, length, expires_at) VALUES ($1, $2, $3, $4)")
    static let attachment = SQLStatement("SELECT account_id, length, received FROM attachments WHERE id = $1")
    static let setAttachmentReceived = SQLStatement("UPDATE attachments SET received = $2 WHERE id = $1")
    static let overview = SQLStatement(
        """
        SELECT d.account_id, d.device_id, d.name, d.push_kind, count(m.id), min(m.expires_at)
        FROM devices d LEFT JOIN mailbox m ON m.account_id = d.account_id AND m.device_id = d.device_id
        GROUP BY d.account_id, d.device_id, d.name, d.push_kind ORDER BY d.account_id, d.device_id LIMIT $1
        """)
}

extension SQLConnection {
    /// Creates an account with its first device, inside the caller's transaction.
    func createAccount(_ accountId: String, device: DeviceRecord) throws {
        let created = try run(MessengerSQL.insertAccount, [.text(accountId), .integer(device.createdAt)])
        if created == 0 { throw MessengerStoreError(.conflict, "account \(accountId) exists") }
        try run(MessengerSQL.insertDevice, MessengerRows.deviceValues(device, accountId: accountId))
    }

    /// Consumes a linking token and adds a device with the next free id.
    func linkDevice(tokenHash: [UInt8], device: DeviceRecord, maximumDevices: Int, now: Int64) throws
        -> (accountId: String, deviceId: Int)
    {
        let owners = try query(MessengerSQL.takeLinkingToken, [.blob(tokenHash)]) { ($0.text(0) ?? "", $0.int(1)) }
        guard let owner = owners.first, owner.1 > now else {
            throw MessengerStoreError(.notFound, "unknown, used or expired linking token")
        }
        _ = try query(MessengerSQL.lockedIdentityKey, [.text(owner.0)]) { _ in true }
        let ids = try query(MessengerSQL.deviceIds, [.text(owner.0)]) { Int($0.int(0)) }
        guard ids.count < maximumDevices else {
            throw MessengerStoreError(.limitReached, "the account has \(ids.count) devices")
        }
        var linked = device
        linked.id = (ids.max() ?? 0) + 1
        try run(MessengerSQL.insertDevice, MessengerRows.deviceValues(linked, accountId: owner.0))
        return (owner.0, linked.id)
    }

    /// Removes a device with its keys and its mailbox; whether it existed.
    func removeDevice(accountId: String, deviceId: Int) throws -> Bool {
        let key: [SQLValue] = [.text(accountId), .integer(Int64(deviceId))]
        var existed = false
        for (index, statement) in MessengerSQL.deleteDeviceRows.enumerated() {
            let deleted = try run(statement, key)
            if index == 0 { existed = deleted > 0 }
        }
        return existed
    }

    /// Stores a device's keys (see `MessengerStore.storeKeys`).
    func storeKeys(
        accountId: String, deviceId: Int, identityKey: [UInt8], signedPreKey: SignedPreKeyUpload?,
        oneTimePreKeys: [OneTimePreKeyUpload]
    ) throws {
        let stored = try query(MessengerSQL.lockedIdentityKey, [.text(accountId)]) { $0.isNull(0) ? nil : $0.bytes(0) }
        guard let current = stored.first else { throw MessengerStoreError(.notFound, "no account \(accountId)") }
        if let current, current != identityKey, deviceId != 1 {
            throw MessengerStoreError(.conflict, "only the first device may change the account's identity key")
        }
        if current != identityKey { try run(MessengerSQL.setIdentityKey, [.text(accountId), .blob(identityKey)]) }
        let device: [SQLValue] = [.text(accountId), .integer(Int64(deviceId))]
        if let key = signedPreKey {
            try run(
                MessengerSQL.upsertSignedPreKey,
                device + [.integer(Int64(key.keyId)), .blob(key.publicKey), .blob(key.signature)])
        }
        for key in oneTimePreKeys {
            try run(MessengerSQL.upsertOneTimePreKey, device + [.integer(Int64(key.keyId)), .blob(key.publicKey)])
        }
    }

    /// The prekeys of one device or of all (see `MessengerStore.takePreKeys`).
    func takePreKeys(accountId: String, deviceId: Int?, oneTimePreKeys: Bool) throws -> [DevicePreKeys] {
        var devices = try query(MessengerSQL.registrations, [.text(accountId)]) {
            DevicePreKeys(deviceId: Int($0.int(0)), registrationId: Int($0.int(1)))
        }
        if let deviceId { devices = devices.filter { $0.deviceId == deviceId } }
        for index in devices.indices {
            let key: [SQLValue] = [.text(accountId), .integer(Int64(devices[index].deviceId))]
            devices[index].signedPreKey = try query(
                MessengerSQL.signedPreKey, key, row: { MessengerRows.signedPreKey($0) }
            )
            .first
            guard oneTimePreKeys else { continue }
            devices[index].oneTimePreKey = try query(
                MessengerSQL.takeOneTimePreKey, key, row: { MessengerRows.oneTimePreKey($0) }
            ).first
        }
        return devices
    }

    /// Checks and stores one send inside the caller's transaction; `insertMailboxRows` stores one
    /// envelope per device and returns each device's mailbox id.
    func storeSend(
        _ message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64,
        insertMailboxRows: (_ envelopes: [(deviceId: Int, bytes: [UInt8])]) throws -> [Int: Int64]
    ) throws -> SendOutcome {
        let earlier = try query(
            MessengerSQL.earlierSends, [.text(message.sourceAccount), .text(message.clientMessageId)]
        ) { ($0.text(0) ?? "", $0.int(1)) }
        if let same = earlier.first(where: { $0.0 == message.destinationAccount }) {
            return .duplicate(serverSeq: same.1)
        }
        let devices = try query(MessengerSQL.destinationDevices, [.text(message.destinationAccount)]) {
            (Int($0.int(0)), Int($0.int(1)))
        }
        if let refusal = MessengerRows.refusal(of: message, devices: devices) { return refusal }
        // The same message to another account (the sender's own devices) keeps its number.
        let serverSeq =
            try earlier.first?.1
            ?? query(MessengerSQL.nextConversationSeq, [.text(message.conversationId)]) { $0.int(0) }.first ?? 1
        let envelopes = message.envelopes.sorted { $0.destinationDeviceId < $1.destinationDeviceId }.map {
            (
                deviceId: $0.destinationDeviceId,
                bytes: EnvelopeEncoding.encode($0, of: message, serverSeq: serverSeq, receivedAt: receivedAt)
            )
        }
        let mailboxIds = try insertMailboxRows(envelopes)
        try run(
            MessengerSQL.insertSend,
            [
                .text(message.sourceAccount), .text(message.clientMessageId), .text(message.destinationAccount),
                .integer(serverSeq), .integer(expiresAt),
            ])
        return .stored(serverSeq: serverSeq, mailboxIds: mailboxIds)
    }

    /// Deletes everything expired before `now` inside the caller's transaction.
    func expire(now: Int64) throws -> (envelopes: Int, attachments: [String]) {
        let envelopes = try run(MessengerSQL.expireMailbox, [.integer(now)])
        try run(MessengerSQL.expireSends, [.integer(now)])
        try run(MessengerSQL.expireLinkingTokens, [.integer(now)])
        let attachments = try query(MessengerSQL.expireAttachments, [.integer(now)]) { $0.text(0) ?? "" }
        return (envelopes, attachments)
    }
}
