import CourierCore

/// The messenger's own tables, in the same SQLite file as the Signal stores so that one
/// transaction covers the ratchet and the messages.
enum MessengerSchema {
    static let statements = [
        """
        CREATE TABLE IF NOT EXISTS messenger_account (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1), account_id TEXT NOT NULL,
            device_id INTEGER NOT NULL, sealed_password BLOB NOT NULL, server_url TEXT NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS messenger_key_state (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1), next_prekey_id INTEGER NOT NULL,
            signed_prekey_id INTEGER NOT NULL, signed_prekey_created INTEGER NOT NULL,
            previous_signed_prekey_id INTEGER)
        """,
        """
        CREATE TABLE IF NOT EXISTS messenger_roster (
            account TEXT NOT NULL, device INTEGER NOT NULL, removed_at INTEGER,
            PRIMARY KEY (account, device))
        """,
        """
        CREATE TABLE IF NOT EXISTS messenger_processed_envelopes (
            source_account TEXT NOT NULL, source_device INTEGER NOT NULL, client_message_id TEXT NOT NULL,
            processed_at INTEGER NOT NULL, outcome TEXT NOT NULL,
            PRIMARY KEY (source_account, source_device, client_message_id))
        """,
        """
        CREATE TABLE IF NOT EXISTS messenger_send_queue (
            client_id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, attempts INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL, last_error TEXT)
        """,
        """
        CREATE TABLE IF NOT EXISTS messenger_groups (
            group_id TEXT PRIMARY KEY, mode TEXT NOT NULL, members TEXT NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS messenger_sender_key_shares (
            group_id TEXT NOT NULL, account TEXT NOT NULL, device INTEGER NOT NULL,
            PRIMARY KEY (group_id, account, device))
        """,
    ]

    static func migrate(_ db: Database) throws {
        for statement in statements { try db.execute(statement) }
    }
}
