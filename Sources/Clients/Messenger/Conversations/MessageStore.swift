import CourierCore
import Foundation

/// The messenger's conversations and messages in SQLite tables prefixed `messenger_`, written
/// through a `Database` the caller holds.
///
/// Write methods nest in the caller's transaction (a savepoint), so the decrypt path can commit
/// the advanced session, the plaintext and the consumed prekey together; each call is all or
/// nothing on its own as well. Reads and writes outside the decrypt path go through
/// `ConversationStore`.
///
/// ```swift
/// try pool.transaction { db in
///     try sessions.storeSession(…, in: db)
///     let isNew = try MessageStore.insertIncoming(message, in: db)
/// }
/// ```
public enum MessageStore {
    /// Creates or upgrades the tables; running it again changes nothing.
    ///
    /// The steps are recorded in `messenger_migrations`, not in CourierCore's
    /// `courier_migrations`: the tables share a file with SignalProtocol's store, whose
    /// `Migrator` refuses a file that records migrations it does not know.
    /// - Throws: `DatabaseSchemaError` when a newer build migrated the file; `DatabaseError`.
    public static func migrate(_ db: Database) throws {
        try db.messengerSavepoint {
            try db.execute("CREATE TABLE IF NOT EXISTS messenger_migrations(name TEXT PRIMARY KEY) WITHOUT ROWID")
            let applied = Set(try db.query("SELECT name FROM messenger_migrations") { $0.text(0) ?? "" })
            let unknown = applied.subtracting(migrations.map(\.name))
            guard unknown.isEmpty else {
                throw DatabaseSchemaError(path: db.path, unknownMigrations: unknown.sorted())
            }
            for migration in migrations where !applied.contains(migration.name) {
                try db.execute(migration.sql)
                try db.run("INSERT INTO messenger_migrations(name) VALUES(?1)", [.text(migration.name)])
            }
        }
    }

    /// Append, never edit or rename.
    static let migrations: [Migrator.Migration] = [
        .init(
            "messenger conversations v1",
            sql: """
                CREATE TABLE messenger_messages(
                    local_id INTEGER PRIMARY KEY AUTOINCREMENT,
                    conversation_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    sender_account TEXT NOT NULL,
                    sender_device INTEGER NOT NULL,
                    server_seq INTEGER,
                    body TEXT NOT NULL,
                    attachment BLOB,
                    state TEXT NOT NULL,
                    outgoing INTEGER NOT NULL,
                    sent_at INTEGER NOT NULL,
                    received_at INTEGER,
                    pending INTEGER GENERATED ALWAYS AS (server_seq IS NULL) VIRTUAL,
                    sort_seq INTEGER GENERATED ALWAYS AS (coalesce(server_seq, 0)) VIRTUAL,
                    UNIQUE(conversation_id, sender_account, client_id)
                );
                CREATE INDEX messenger_messages_order
                    ON messenger_messages(conversation_id, pending, sort_seq, local_id);
                CREATE TABLE messenger_conversations(
                    conversation_id TEXT PRIMARY KEY,
                    epoch INTEGER NOT NULL DEFAULT 0
                ) WITHOUT ROWID;
                CREATE TABLE messenger_control_seqs(
                    conversation_id TEXT NOT NULL,
                    server_seq INTEGER NOT NULL,
                    PRIMARY KEY(conversation_id, server_seq)
                ) WITHOUT ROWID;
                CREATE TABLE messenger_receipts_out(
                    conversation_id TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    up_to_seq INTEGER NOT NULL,
                    sent_up_to_seq INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY(conversation_id, recipient, kind)
                ) WITHOUT ROWID;
                """),
        // The contacts' identity keys, verification and pending changes (`SQLiteContactTrustStore`),
        // in the same file as the messages when the messenger client keeps both.
        .init("messenger contact trust v1", sql: SQLiteContactTrustStore.migrations[0].sql),
    ]

    /// The rows `message(from:)` can decode: damaged ones are left out in SQL, so a page or the
    /// conversation list is never made of rows that decode to nothing.
    static let intact =
        "state IN (\(MessageState.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))) AND client_id != '' AND sender_account != '' AND (server_seq IS NULL OR server_seq > 0) AND body IS NOT NULL"

    /// The columns `message(from:)` reads, in order.
    static let columns =
        "client_id, conversation_id, sender_account, sender_device, server_seq, body, attachment, state, sent_at, received_at, local_id, pending, sort_seq"

    /// Decodes one row; `nil` for a damaged row (unknown state, missing ids), which readers skip
    /// rather than fail the whole conversation for.
    static func message(from row: Row) -> Message? {
        guard let clientId = row.text(0), !clientId.isEmpty, let conversation = row.text(1),
            let account = row.text(2), !account.isEmpty, let body = row.text(5),
            let state = row.text(7).flatMap(MessageState.init(rawValue:))
        else { return nil }
        let seq: Int64? = row.isNull(4) ? nil : row.int(4)
        if let seq, seq <= 0 { return nil }
        return Message(
            clientId: clientId, conversationId: conversation,
            sender: MessageSender(account: account, device: Int(truncatingIfNeeded: row.int(3))), serverSeq: seq,
            body: body, attachment: row.isNull(6) ? nil : try? AttachmentPointer(encoded: row.bytes(6)), state: state,
            sentAt: row.int(8),
            receivedAt: row.isNull(9) ? nil : row.int(9))
    }

    /// A row's position in display order: `(pending, seq, local id)`.
    static func position(from row: Row) -> MessagePosition {
        MessagePosition(pending: row.int(11) != 0, sortSeq: row.int(12), localId: row.int(10))
    }
}
