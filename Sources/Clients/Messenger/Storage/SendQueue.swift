import CourierCore

/// The persisted queue of this device's sends that have not reached the server yet: one row per
/// `sending` message with its attempts and when to try again. The message itself (text,
/// attachment, client id) is its `messenger_messages` row; a retry encrypts it afresh with the
/// same client message id, so the server stores it once however many attempts reach it.
enum SendQueue {
    struct Entry: Sendable, Equatable {
        var clientId: String
        var conversationId: String
        var attempts: Int
    }

    static func enqueue(clientId: String, conversationId: String, now: Int64, db: Database) throws {
        try db.run(
            """
            INSERT INTO messenger_send_queue (client_id, conversation_id, attempts, next_attempt_at)
            VALUES (?, ?, 0, ?)
            ON CONFLICT DO UPDATE SET attempts = 0, next_attempt_at = excluded.next_attempt_at, last_error = NULL
            """, [.text(clientId), .text(conversationId), .integer(now)])
    }

    static func remove(clientId: String, db: Database) throws {
        try db.run("DELETE FROM messenger_send_queue WHERE client_id = ?", [.text(clientId)])
    }

    /// Counts a failed attempt and schedules the next one.
    static func recordFailure(clientId: String, nextAttemptAt: Int64, error: String, db: Database) throws {
        try db.run(
            """
            UPDATE messenger_send_queue SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?
            WHERE client_id = ?
            """, [.integer(nextAttemptAt), .text(error), .text(clientId)])
    }

    /// The failed attempts so far (0 for a message not queued).
    static func attempts(clientId: String, db: Database) throws -> Int {
        try db.query("SELECT attempts FROM messenger_send_queue WHERE client_id = ?", [.text(clientId)]) {
            Int($0.int(0))
        }.first ?? 0
    }

    /// The sends due at `now`, oldest first.
    static func due(now: Int64, db: Database) throws -> [Entry] {
        try db.query(
            """
            SELECT client_id, conversation_id, attempts FROM messenger_send_queue
            WHERE next_attempt_at <= ? ORDER BY rowid
            """, [.integer(now)]
        ) { Entry(clientId: $0.text(0) ?? "", conversationId: $0.text(1) ?? "", attempts: Int($0.int(2))) }
    }
}
