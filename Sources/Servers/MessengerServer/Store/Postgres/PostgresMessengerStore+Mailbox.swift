import CourierCore
import CourierPostgres

extension PostgresMessengerStore {
    /// One transaction for the batch, a savepoint per send: a send that fails is undone alone.
    /// A batch that loses a deadlock or a serialisation conflict to another instance's batch is
    /// retried whole, a few times.
    func commit(_ batch: [SendBatcher.Pending]) {
        var attempt = 0
        while true {
            attempt += 1
            do {
                try pool.write { db in
                    // A batch of one needs no savepoint: its failure rolls the transaction back.
                    guard batch.count > 1 else {
                        let pending = batch[0]
                        pending.result = .success(
                            try store(
                                pending.message, receivedAt: pending.receivedAt, expiresAt: pending.expiresAt, in: db))
                        return
                    }
                    for pending in batch {
                        do {
                            pending.result = .success(
                                try db.savepoint { db in
                                    try store(
                                        pending.message, receivedAt: pending.receivedAt,
                                        expiresAt: pending.expiresAt, in: db)
                                })
                        } catch let error as PostgresError where error.isRetryable || error.isConnectionFailure {
                            throw error
                        } catch {
                            pending.result = .failure(MessengerStoreError.wrapping(error))
                        }
                    }
                }
                return
            } catch let error as PostgresError where error.isRetryable && attempt < 4 {
                for pending in batch { pending.result = nil }
            } catch {
                let failure = MessengerStoreError.wrapping(error)
                for pending in batch { pending.result = .failure(failure) }
                return
            }
        }
    }

    /// Checks and stores one send inside the batch's transaction: every device's next mailbox
    /// id (from its counter row, locked until commit) and its row, in one statement.
    func store(_ message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64, in db: PostgresConnection) throws
        -> SendOutcome
    {
        try db.storeSend(message, receivedAt: receivedAt, expiresAt: expiresAt) { envelopes in
            let deviceIds = envelopes.map { String($0.deviceId) }.joined(separator: ",")
            let blobs = envelopes.map { "\"\\\\x" + Hex.encode($0.bytes) + "\"" }.joined(separator: ",")
            let stored = try db.query(
                """
                WITH next AS (
                    UPDATE devices SET mailbox_seq = mailbox_seq + 1
                    WHERE account_id = $1 AND device_id = ANY($2::bigint[]) RETURNING device_id, mailbox_seq)
                INSERT INTO mailbox(account_id, device_id, id, envelope, expires_at)
                SELECT $1, next.device_id, next.mailbox_seq, e.envelope, $4
                FROM next JOIN unnest($2::bigint[], $3::bytea[]) AS e(device_id, envelope) USING (device_id)
                RETURNING device_id, id
                """,
                [
                    .text(message.destinationAccount), .text("{\(deviceIds)}"), .text("{\(blobs)}"),
                    .integer(expiresAt),
                ]
            ) { (Int($0.int(0)), $0.int(1)) }
            return Dictionary(stored, uniquingKeysWith: { first, _ in first })
        }
    }

    public func acknowledge(accountId: String, deviceId: Int, ids: [Int64]) throws(MessengerStoreError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try storing {
            try pool.withConnection { db in
                // One statement, one round trip; it waits for its commit to be flushed like any
                // other (PostgreSQL flushes concurrent commits together).
                try Self.deleteAcknowledged(accountId: accountId, deviceId: deviceId, ids: ids, in: db)
            }
        }
    }

    /// Every device's acks in one transaction (the ack batcher's flush): one commit to flush,
    /// a statement per device.
    public func acknowledge(_ acks: [(accountId: String, deviceId: Int, ids: [Int64])]) throws(MessengerStoreError)
        -> Int
    {
        let acks = acks.filter { !$0.ids.isEmpty }
        guard !acks.isEmpty else { return 0 }
        return try storing {
            try pool.write { db in
                try acks.reduce(0) { deleted, ack in
                    deleted
                        + (try Self.deleteAcknowledged(
                            accountId: ack.accountId, deviceId: ack.deviceId, ids: ack.ids, in: db))
                }
            }
        }
    }

    private static func deleteAcknowledged(accountId: String, deviceId: Int, ids: [Int64], in db: PostgresConnection)
        throws -> Int
    {
        try db.run(
            "DELETE FROM mailbox WHERE account_id = $1 AND device_id = $2 AND id = ANY($3::bigint[])",
            [.text(accountId), .integer(Int64(deviceId)), .text("{\(ids.map(String.init).joined(separator: ","))}")])
    }
}
