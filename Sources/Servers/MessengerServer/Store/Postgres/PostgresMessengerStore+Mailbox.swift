import CourierCore
import CourierPostgres

extension PostgresMessengerStore {
    public func send(_ message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64) throws(MessengerStoreError)
        -> SendOutcome
    {
        let pending = SendBatcher.Pending(message: message, receivedAt: receivedAt, expiresAt: expiresAt)
        return try batcher.submit(pending) { batch in commit(batch) }.get()
    }

    /// One transaction for the batch, a savepoint per send: a send that fails is undone alone.
    /// A batch that loses a deadlock or a serialisation conflict to another instance's batch is
    /// retried whole, a few times.
    private func commit(_ batch: [SendBatcher.Pending]) {
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

    /// Checks and stores one send inside the batch's transaction.
    func store(_ message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64, in db: PostgresConnection) throws
        -> SendOutcome
    {
        let earlier = try db.query(
            "SELECT destination_account, server_seq FROM sends WHERE account_id = $1 AND client_message_id = $2",
            [.text(message.sourceAccount), .text(message.clientMessageId)]
        ) { row in (row.text(0) ?? "", row.int(1)) }
        if let same = earlier.first(where: { $0.0 == message.destinationAccount }) {
            return .duplicate(serverSeq: same.1)
        }
        // Locks the destination's device rows (in id order, as every sender does) until commit:
        // the mailbox ids taken below become visible in the order they were given.
        let devices = try db.query(
            "SELECT device_id, registration_id FROM devices WHERE account_id = $1 ORDER BY device_id FOR UPDATE",
            [.text(message.destinationAccount)]
        ) { row in (Int(row.int(0)), Int(row.int(1))) }
        if let refusal = MessengerRows.refusal(of: message, devices: devices) { return refusal }

        let serverSeq: Int64
        if let other = earlier.first {
            serverSeq = other.1
        } else {
            serverSeq =
                try db.query(
                    """
                    INSERT INTO conversations(id, last_seq) VALUES ($1, 1)
                    ON CONFLICT(id) DO UPDATE SET last_seq = conversations.last_seq + 1 RETURNING last_seq
                    """, [.text(message.conversationId)]
                ) { $0.int(0) }.first ?? 1
        }
        // Every device's next mailbox id and its row, in one statement.
        let envelopes = message.envelopes.sorted { $0.destinationDeviceId < $1.destinationDeviceId }
        let deviceIds = envelopes.map { String($0.destinationDeviceId) }.joined(separator: ",")
        let blobs = envelopes.map {
            "\"\\\\x"
                + Hex.encode(EnvelopeEncoding.encode($0, of: message, serverSeq: serverSeq, receivedAt: receivedAt))
                + "\""
        }.joined(separator: ",")
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
        let mailboxIds = Dictionary(stored, uniquingKeysWith: { first, _ in first })
        try db.run(
            """
            INSERT INTO sends(account_id, client_message_id, destination_account, server_seq, expires_at)
            VALUES ($1, $2, $3, $4, $5)
            """,
            [
                .text(message.sourceAccount), .text(message.clientMessageId), .text(message.destinationAccount),
                .integer(serverSeq), .integer(expiresAt),
            ])
        return .stored(serverSeq: serverSeq, mailboxIds: mailboxIds)
    }

    public func mailbox(accountId: String, deviceId: Int, afterId: Int64, limit: Int) throws(MessengerStoreError)
        -> [MailboxEntry]
    {
        try storing {
            try pool.withConnection { db in
                try db.query(
                    """
                    SELECT id, envelope FROM mailbox WHERE account_id = $1 AND device_id = $2 AND id > $3
                    ORDER BY id LIMIT $4
                    """, [.text(accountId), .integer(Int64(deviceId)), .integer(afterId), .integer(Int64(limit))]
                ) { row in MailboxEntry(id: row.int(0), envelope: row.bytes(1)) }
            }
        }
    }

    public func acknowledge(accountId: String, deviceId: Int, ids: [Int64]) throws(MessengerStoreError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try storing {
            try pool.withConnection { db in
                // One statement, one round trip; it waits for its commit to be flushed like any
                // other (PostgreSQL flushes concurrent commits together).
                try db.run(
                    "DELETE FROM mailbox WHERE account_id = $1 AND device_id = $2 AND id = ANY($3::bigint[])",
                    [
                        .text(accountId), .integer(Int64(deviceId)),
                        .text("{\(ids.map(String.init).joined(separator: ","))}"),
                    ])
            }
        }
    }

    /// Deletes what expired, on one instance at a time: while another instance runs it, this
    /// round does nothing and reports nothing.
    public func expire(now: Int64) throws(MessengerStoreError) -> (envelopes: Int, attachments: [String]) {
        try storing {
            try pool.ifNoOtherInstanceRuns("messenger.expiry") { db in try expire(now: now, in: db) } ?? (0, [])
        }
    }

    private func expire(now: Int64, in db: PostgresConnection) throws -> (envelopes: Int, attachments: [String]) {
        try db.transaction {
            let envelopes = try db.run("DELETE FROM mailbox WHERE expires_at < $1", [.integer(now)])
            try db.run("DELETE FROM sends WHERE expires_at < $1", [.integer(now)])
            try db.run("DELETE FROM linking_tokens WHERE expires_at < $1", [.integer(now)])
            let attachments = try db.query(
                "DELETE FROM attachments WHERE expires_at < $1 RETURNING id", [.integer(now)]
            ) { $0.text(0) ?? "" }
            return (envelopes, attachments)
        }
    }

    public func createAttachment(id: String, accountId: String, length: Int64, expiresAt: Int64)
        throws(MessengerStoreError)
    {
        try storing {
            try pool.withConnection { db in
                try db.run(
                    "INSERT INTO attachments(id, account_id, length, expires_at) VALUES ($1, $2, $3, $4)",
                    [.text(id), .text(accountId), .integer(length), .integer(expiresAt)])
            }
        }
    }

    public func attachment(id: String) throws(MessengerStoreError)
        -> (accountId: String, length: Int64, received: Int64)?
    {
        try storing {
            try pool.withConnection { db in
                try db.query("SELECT account_id, length, received FROM attachments WHERE id = $1", [.text(id)]) { row in
                    (row.text(0) ?? "", row.int(1), row.int(2))
                }.first
            }
        }
    }

    public func setAttachmentReceived(id: String, received: Int64) throws(MessengerStoreError) {
        try storing {
            try pool.withConnection { db in
                try db.run("UPDATE attachments SET received = $2 WHERE id = $1", [.text(id), .integer(received)])
            }
        }
    }
}
