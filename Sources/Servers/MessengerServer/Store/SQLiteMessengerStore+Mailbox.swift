import CourierCore

extension SQLiteMessengerStore {
    /// One transaction for the batch, a savepoint per send: a send that fails is undone alone and
    /// reported with its own error, and the others commit. When SQLite has rolled the whole
    /// transaction back (a full disk, an I/O error), nothing of the batch is left to commit, so the
    /// batch fails with that error.
    func commit(_ batch: [SendBatcher.Pending]) {
        do {
            try pool.write { db in
                for pending in batch {
                    do {
                        pending.result = .success(try db.savepoint { db in try store(pending, in: db) })
                    } catch {
                        pending.storedEntries = [:]
                        if db.isAutocommit { throw error }
                        pending.result = .failure(MessengerStoreError.wrapping(error))
                    }
                }
            }
        } catch {
            let failure = MessengerStoreError.wrapping(error)
            for pending in batch {
                pending.result = .failure(failure)
                pending.storedEntries = [:]
            }
        }
    }

    /// Checks and stores one send; each envelope's mailbox id comes from AUTOINCREMENT (SQLite's
    /// writers take turns, so ids are visible in the order given).
    private func store(_ pending: SendBatcher.Pending, in db: Database) throws -> SendOutcome {
        try db.storeSend(pending.message, receivedAt: pending.receivedAt, expiresAt: pending.expiresAt) { envelopes in
            let insert = try db.cachedStatement(
                "INSERT INTO mailbox(account_id, device_id, envelope, expires_at) VALUES (?1, ?2, ?3, ?4)")
            var ids: [Int: Int64] = [:]
            for envelope in envelopes {
                try insert.execute([
                    .text(pending.message.destinationAccount), .integer(Int64(envelope.deviceId)),
                    .blob(envelope.bytes), .integer(pending.expiresAt),
                ])
                ids[envelope.deviceId] = db.lastInsertRowID
                // When this store is the mailbox's only writer, ids come in commit order: the
                // messenger may hand these rows to live sockets at the commit.
                if isSoleMailboxWriter {
                    pending.storedEntries[envelope.deviceId] = MailboxEntry(
                        id: db.lastInsertRowID, envelope: envelope.bytes)
                }
            }
            return ids
        }
    }

    public func acknowledge(accountId: String, deviceId: Int, ids: [Int64]) throws(MessengerStoreError) -> Int {
        try acknowledge([(accountId, deviceId, ids)])
    }

    /// Every device's acks in one transaction (the ack batcher's flush).
    public func acknowledge(_ acks: [(accountId: String, deviceId: Int, ids: [Int64])]) throws(MessengerStoreError)
        -> Int
    {
        guard acks.contains(where: { !$0.ids.isEmpty }) else { return 0 }
        return try storing {
            // A lost acknowledgement only redelivers: no fsync of its own (see the type's note).
            try pool.writeDeferringSync { db in
                let delete = try db.cachedStatement(
                    "DELETE FROM mailbox WHERE account_id = ?1 AND device_id = ?2 AND id = ?3")
                var deleted = 0
                for ack in acks {
                    for id in ack.ids {
                        try delete.execute([.text(ack.accountId), .integer(Int64(ack.deviceId)), .integer(id)])
                        deleted += db.changes
                    }
                }
                return deleted
            }
        }
    }
}
