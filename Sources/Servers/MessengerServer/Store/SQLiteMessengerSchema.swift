import CourierCore

/// The messenger's tables. Mailbox ids come from AUTOINCREMENT so a deleted row's id is never
/// given again: the catch-up cursor only moves forward.
enum SQLiteMessengerSchema {
    static let migrator = Migrator([
        .init(
            "create accounts, devices, keys, mailboxes and attachments",
            sql: """
                CREATE TABLE accounts(
                    id TEXT PRIMARY KEY,
                    identity_key BLOB,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE devices(
                    account_id TEXT NOT NULL,
                    device_id INTEGER NOT NULL,
                    registration_id INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    push_kind TEXT,
                    push_address TEXT,
                    PRIMARY KEY(account_id, device_id)
                ) WITHOUT ROWID;
                CREATE TABLE linking_tokens(
                    token_hash BLOB PRIMARY KEY,
                    account_id TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE signed_prekeys(
                    account_id TEXT NOT NULL,
                    device_id INTEGER NOT NULL,
                    key_id INTEGER NOT NULL,
                    public_key BLOB NOT NULL,
                    signature BLOB NOT NULL,
                    PRIMARY KEY(account_id, device_id)
                ) WITHOUT ROWID;
                CREATE TABLE one_time_prekeys(
                    account_id TEXT NOT NULL,
                    device_id INTEGER NOT NULL,
                    key_id INTEGER NOT NULL,
                    public_key BLOB NOT NULL,
                    PRIMARY KEY(account_id, device_id, key_id)
                ) WITHOUT ROWID;
                CREATE TABLE conversations(
                    id TEXT PRIMARY KEY,
                    last_seq INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sends(
                    account_id TEXT NOT NULL,
                    client_message_id TEXT NOT NULL,
                    destination_account TEXT NOT NULL,
                    server_seq INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    PRIMARY KEY(account_id, client_message_id, destination_account)
                ) WITHOUT ROWID;
                CREATE INDEX sends_by_expiry ON sends(expires_at);
                CREATE TABLE mailbox(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    account_id TEXT NOT NULL,
                    device_id INTEGER NOT NULL,
                    envelope BLOB NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX mailbox_by_device ON mailbox(account_id, device_id, id);
                CREATE INDEX mailbox_by_expiry ON mailbox(expires_at);
                CREATE TABLE attachments(
                    id TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL,
                    length INTEGER NOT NULL,
                    received INTEGER NOT NULL DEFAULT 0,
                    expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX attachments_by_expiry ON attachments(expires_at);
                """),
        .init(
            "remember each device's last push, for coalescing across instances",
            sql: "ALTER TABLE devices ADD COLUMN last_push_at INTEGER"),
    ])
}
