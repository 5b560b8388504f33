import CourierCore
import Foundation

extension RealtimeStore {
    private static let columns =
        "client_id, position, destination, payload, state, attempts, server_seq, last_error"

    private static func item(_ row: Row) -> OutboxItem {
        OutboxItem(
            clientId: row.text(0) ?? "", position: row.int(1), destination: row.text(2) ?? "", payload: row.bytes(3),
            state: OutboxState(rawValue: row.text(4) ?? "") ?? .failed, attempts: Int(row.int(5)),
            serverSeq: row.isNull(6) ? nil : row.int(6), lastError: row.text(7))
    }

    /// Appends an item to the outbox, committed before it returns (it survives a kill).
    /// - Parameters:
    ///   - destination: where it goes; not empty.
    ///   - payload: what the protocol adapter sends; at most `maximumPayloadBytes`.
    ///   - clientId: its idempotency key; a new UUID by default.
    /// - Returns: the stored item, `sending`.
    /// - Throws: `RealtimeError` `invalidArgument` for an empty destination or clientId, or a payload
    ///   too large; `storage`.
    @discardableResult
    public func enqueue(
        destination: String, payload: [UInt8], clientId: String = UUID().uuidString
    ) throws(RealtimeError) -> OutboxItem {
        guard !destination.isEmpty else { throw RealtimeError(.invalidArgument, "the destination is empty") }
        guard !clientId.isEmpty else { throw RealtimeError(.invalidArgument, "the client id is empty") }
        guard payload.count <= maximumPayloadBytes else {
            throw RealtimeError(
                .invalidArgument, "the payload has \(payload.count) bytes; the limit is \(maximumPayloadBytes)")
        }
        return try access { db in
            try db.run(
                "INSERT INTO outbox(client_id, destination, payload, state) VALUES(?1, ?2, ?3, 'sending')",
                [.text(clientId), .text(destination), .blob(payload)])
            return OutboxItem(
                clientId: clientId, position: db.lastInsertRowID, destination: destination, payload: payload,
                state: .sending, attempts: 0)
        }
    }

    /// The item with `clientId`, if any.
    /// - Throws: `RealtimeError` `storage`.
    public func outboxItem(_ clientId: String) throws(RealtimeError) -> OutboxItem? {
        try access { db in
            try db.query("SELECT \(Self.columns) FROM outbox WHERE client_id = ?1", [.text(clientId)], row: Self.item)
                .first
        }
    }

    /// Every item for `destination` in display order: acknowledged items by `serverSeq`, then
    /// the pending and failed ones in the order they were written.
    /// - Throws: `RealtimeError` `storage`.
    public func outbox(destination: String) throws(RealtimeError) -> [OutboxItem] {
        try access { db in
            try db.query(
                """
                SELECT \(Self.columns) FROM outbox WHERE destination = ?1
                ORDER BY server_seq IS NULL, server_seq, position
                """, [.text(destination)], row: Self.item)
        }
    }

    /// Items still `sending` whose retry time has come (`now` in wall milliseconds), oldest first.
    /// - Throws: `RealtimeError` `storage`.
    func dueItems(now: Int64, limit: Int, excluding: Set<String>) throws(RealtimeError) -> [OutboxItem] {
        try access { db in
            try db.query(
                """
                SELECT \(Self.columns) FROM outbox WHERE state = 'sending' AND next_attempt_at <= ?1
                ORDER BY position LIMIT ?2
                """, [.integer(now), .integer(Int64(limit + excluding.count))], row: Self.item
            ).filter { !excluding.contains($0.clientId) }.prefix(limit).map { $0 }
        }
    }

    /// The earliest attempt time of a `sending` item not in `excluding` (those in flight), even
    /// one already past: an item that came due after the outbox last looked is then sent at
    /// once instead of waiting for some other answer to look again.
    func nextAttemptTime(excluding: Set<String>) throws(RealtimeError) -> Int64? {
        try access { db in
            try db.query(
                "SELECT client_id, next_attempt_at FROM outbox WHERE state = 'sending' ORDER BY next_attempt_at LIMIT ?1",
                [.integer(Int64(excluding.count + 1))]
            ) { row in (row.text(0) ?? "", row.int(1)) }.first { !excluding.contains($0.0) }?.1
        }
    }

    /// The server acknowledged `clientId` with `serverSeq`.
    func acknowledge(_ clientId: String, serverSeq: Int64) throws(RealtimeError) {
        try access { db in
            try db.run(
                "UPDATE outbox SET state = 'sent', server_seq = ?2, last_error = NULL WHERE client_id = ?1 AND state = 'sending'",
                [.text(clientId), .integer(serverSeq)])
        }
    }

    /// An attempt at `clientId` failed: it waits `retryDelay` (wall milliseconds from `now`), or
    /// goes to `failed` once it has failed `maximumAttempts` times.
    /// - Returns: its state afterwards.
    func attemptFailed(
        _ clientId: String, reason: String, now: Int64, retryDelayMilliseconds: Int64, maximumAttempts: Int
    ) throws(RealtimeError) -> OutboxState {
        try access { db in
            try db.run(
                """
                UPDATE outbox SET attempts = attempts + 1, last_error = ?2, next_attempt_at = ?3,
                    state = CASE WHEN attempts + 1 >= ?4 THEN 'failed' ELSE state END
                WHERE client_id = ?1 AND state = 'sending'
                """,
                [
                    .text(clientId), .text(reason), .integer(now + retryDelayMilliseconds),
                    .integer(Int64(maximumAttempts)),
                ])
            let state = try db.query("SELECT state FROM outbox WHERE client_id = ?1", [.text(clientId)]) { $0.text(0) }
            return state.first.flatMap { $0 }.flatMap(OutboxState.init(rawValue:)) ?? .failed
        }
    }

    /// Sends a `failed` item again (the user tapped retry): `sending`, attempts back to 0, due now.
    /// - Throws: `RealtimeError` `notFound` when no failed item has that id; `storage`.
    public func retry(_ clientId: String) throws(RealtimeError) {
        try access { db in
            try db.run(
                "UPDATE outbox SET state = 'sending', attempts = 0, next_attempt_at = 0 WHERE client_id = ?1 AND state = 'failed'",
                [.text(clientId)])
            guard db.changes > 0 else { throw RealtimeError(.notFound, "no failed outbox item \(clientId)") }
        }
    }

    /// A receipt moved `clientId` forward to `state` (`delivered` or `read`); receipts that
    /// arrive late or out of order never move it back.
    /// - Throws: `RealtimeError` `invalidArgument` for another state, `notFound` for an unknown or
    ///   unacknowledged item; `storage`.
    public func markReceipt(_ clientId: String, _ state: OutboxState) throws(RealtimeError) {
        guard state == .delivered || state == .read else {
            throw RealtimeError(.invalidArgument, "a receipt marks delivered or read, not \(state)")
        }
        guard let item = try outboxItem(clientId), item.state.rank >= OutboxState.sent.rank else {
            throw RealtimeError(.notFound, "no acknowledged outbox item \(clientId)")
        }
        guard state.rank > item.state.rank else { return }
        try access { db in
            try db.run("UPDATE outbox SET state = ?2 WHERE client_id = ?1", [.text(clientId), .text(state.rawValue)])
        }
    }
}
