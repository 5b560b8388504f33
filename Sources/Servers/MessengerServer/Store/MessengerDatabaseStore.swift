import CourierCore

/// A messenger store on one of the engines: it says how it opens a transaction, reads, and runs
/// a single write, and gets the `MessengerStore` methods written once in `MessengerSQL` here.
/// What stays each engine's own: the send's group commit, the mailbox rows, acknowledgements.
protocol MessengerDatabaseStore: MessengerStore, SQLDatabaseStore {
    /// Gathers the sends that arrive while a commit runs into the next group.
    var batcher: SendBatcher { get }

    /// Stores one group of sends, in one transaction where the engine allows, and sets each
    /// send's result.
    func commit(_ batch: [SendBatcher.Pending])
}

extension MessengerDatabaseStore {
    /// Hands the send to the batcher, which stores it with the sends that arrive meanwhile in one
    /// group commit (`commit(_:)`); see `MessengerStore.send`.
    public func send(_ message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64) throws(MessengerStoreError)
        -> SendOutcome
    {
        let pending = SendBatcher.Pending(message: message, receivedAt: receivedAt, expiresAt: expiresAt)
        return try batcher.submit(pending) { batch in commit(batch) }.get()
    }

    /// Queues the send behind those queued before it (the batcher keeps their order) and returns
    /// at once; the batcher commits it with its group, and `QueuedSend` waits for that.
    public func queueSend(_ message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64) -> QueuedSend {
        let pending = SendBatcher.Pending(message: message, receivedAt: receivedAt, expiresAt: expiresAt)
        batcher.enqueue(pending) { batch in commit(batch) }
        return QueuedSend(pending)
    }

    public func createAccount(_ accountId: String, device: DeviceRecord) throws(MessengerStoreError) {
        try storing { try writing { db in try db.createAccount(accountId, device: device) } }
    }

    public func storeLinkingToken(accountId: String, tokenHash: [UInt8], expiresAt: Int64)
        throws(MessengerStoreError)
    {
        try storing {
            try writingOne { db in
                try db.run(
                    MessengerSQL.insertLinkingToken, [.blob(tokenHash), .text(accountId), .integer(expiresAt)])
            }
        }
    }

    public func linkingTokenIsValid(tokenHash: [UInt8], now: Int64) throws(MessengerStoreError) -> Bool {
        try storing {
            try reading { db in
                try !db.query(MessengerSQL.validLinkingToken, [.blob(tokenHash), .integer(now)]) { _ in true }.isEmpty
            }
        }
    }

    public func linkDevice(tokenHash: [UInt8], device: DeviceRecord, maximumDevices: Int, now: Int64)
        throws(MessengerStoreError) -> (accountId: String, deviceId: Int)
    {
        try storing {
            try writing { db in
                try db.linkDevice(tokenHash: tokenHash, device: device, maximumDevices: maximumDevices, now: now)
            }
        }
    }

    public func device(accountId: String, deviceId: Int) throws(MessengerStoreError) -> DeviceRecord? {
        try storing {
            try reading { db in
                try db.query(
                    MessengerSQL.device, [.text(accountId), .integer(Int64(deviceId))],
                    row: { MessengerRows.device($0) }
                ).first
            }
        }
    }

    public func replacePasswordHash(accountId: String, deviceId: Int, expected: String, with replacement: String)
        throws(MessengerStoreError) -> Bool
    {
        try storing {
            try writingOne { db in
                try db.run(
                    MessengerSQL.replacePasswordHash,
                    [.text(accountId), .integer(Int64(deviceId)), .text(expected), .text(replacement)]) > 0
            }
        }
    }

    public func devices(accountId: String) throws(MessengerStoreError) -> [DeviceRecord] {
        try storing {
            try reading { db in
                try db.query(MessengerSQL.devices, [.text(accountId)], row: { MessengerRows.device($0) })
            }
        }
    }

    public func removeDevice(accountId: String, deviceId: Int) throws(MessengerStoreError) -> Bool {
        try storing { try writing { db in try db.removeDevice(accountId: accountId, deviceId: deviceId) } }
    }

    public func setPushEndpoint(_ endpoint: PushEndpoint?, accountId: String, deviceId: Int)
        throws(MessengerStoreError)
    {
        try storing {
            try writingOne { db in
                try db.run(
                    MessengerSQL.setPushEndpoint,
                    [
                        .text(accountId), .integer(Int64(deviceId)), endpoint.map { .text($0.kind.rawValue) } ?? .null,
                        endpoint.map { .text($0.address) } ?? .null,
                    ])
            }
        }
    }

    public func claimPush(accountId: String, deviceId: Int, now: Int64, intervalMilliseconds: Int64)
        throws(MessengerStoreError) -> Bool
    {
        try storing {
            try writingOne { db in
                try db.run(
                    MessengerSQL.claimPush,
                    [.text(accountId), .integer(Int64(deviceId)), .integer(now), .integer(now - intervalMilliseconds)])
                    == 1
            }
        }
    }

    public func clearPushClaim(accountId: String, deviceId: Int) throws(MessengerStoreError) {
        try storing {
            try writingOne { db in
                try db.run(MessengerSQL.clearPushClaim, [.text(accountId), .integer(Int64(deviceId))])
            }
        }
    }

    public func identityKey(accountId: String) throws(MessengerStoreError) -> [UInt8]? {
        try storing {
            try reading { db in
                try db.query(MessengerSQL.identityKey, [.text(accountId)]) { $0.isNull(0) ? nil : $0.bytes(0) }.first
                    ?? nil
            }
        }
    }

    public func storeKeys(
        accountId: String, deviceId: Int, identityKey: [UInt8], signedPreKey: SignedPreKeyUpload?,
        oneTimePreKeys: [OneTimePreKeyUpload]
    ) throws(MessengerStoreError) {
        try storing {
            try writing { db in
                try db.storeKeys(
                    accountId: accountId, deviceId: deviceId, identityKey: identityKey, signedPreKey: signedPreKey,
                    oneTimePreKeys: oneTimePreKeys)
            }
        }
    }

    public func oneTimePreKeyCount(accountId: String, deviceId: Int) throws(MessengerStoreError) -> Int {
        try storing {
            try reading { db in
                try db.query(MessengerSQL.oneTimePreKeyCount, [.text(accountId), .integer(Int64(deviceId))]) {
                    Int($0.int(0))
                }.first ?? 0
            }
        }
    }

    public func takePreKeys(accountId: String, deviceId: Int?, oneTimePreKeys: Bool) throws(MessengerStoreError)
        -> [DevicePreKeys]
    {
        try storing {
            try writing { db in
                try db.takePreKeys(accountId: accountId, deviceId: deviceId, oneTimePreKeys: oneTimePreKeys)
            }
        }
    }

    public func mailbox(accountId: String, deviceId: Int, afterId: Int64, limit: Int) throws(MessengerStoreError)
        -> [MailboxEntry]
    {
        try storing {
            try reading { db in
                try db.query(
                    MessengerSQL.mailbox,
                    [.text(accountId), .integer(Int64(deviceId)), .integer(afterId), .integer(Int64(limit))]
                ) { MailboxEntry(id: $0.int(0), envelope: $0.bytes(1)) }
            }
        }
    }

    public func createAttachment(id: String, accountId: String, length: Int64, expiresAt: Int64)
        throws(MessengerStoreError)
    {
        try storing {
            try writingOne { db in
                try db.run(
                    MessengerSQL.createAttachment, [.text(id), .text(accountId), .integer(length), .integer(expiresAt)])
            }
        }
    }

    public func attachment(id: String) throws(MessengerStoreError)
        -> (accountId: String, length: Int64, received: Int64)?
    {
        try storing {
            try reading { db in
                try db.query(MessengerSQL.attachment, [.text(id)]) { ($0.text(0) ?? "", $0.int(1), $0.int(2)) }.first
            }
        }
    }

    public func setAttachmentReceived(id: String, received: Int64) throws(MessengerStoreError) {
        try storing {
            try writingOne { db in try db.run(MessengerSQL.setAttachmentReceived, [.text(id), .integer(received)]) }
        }
    }

    public func deviceOverview(limit: Int) throws(MessengerStoreError) -> [DeviceMailboxSummary] {
        try storing {
            try reading { db in
                try db.query(MessengerSQL.overview, [.integer(Int64(limit))], row: { MessengerRows.overview($0) })
            }
        }
    }
}
