import CourierCore
import CourierPostgres

/// The messenger's tables on PostgreSQL: the SQLite schema's tables and columns, so operators'
/// queries read either. Two additions keep PostgreSQL's concurrency honest:
/// - `devices.mailbox_seq`, the last mailbox id given to the device: a sender takes the next one
///   with `UPDATE … RETURNING`, holding the device row until it commits, so ids become visible
///   in the order they were given and a catch-up cursor (`after=`) never skips a row that
///   commits late (a shared identity column would);
/// - mailbox rows are keyed `(account_id, device_id, id)`: ids count per device.
enum PostgresMessengerSchema {
    static let migrator = PostgresMigrator(
        scope: "messenger",
        [
            .init(
                "create accounts, devices, keys, mailboxes and attachments",
                sql: """
                    CREATE TABLE accounts(
                        id text PRIMARY KEY,
                        identity_key bytea,
                        created_at bigint NOT NULL);
                    CREATE TABLE devices(
                        account_id text NOT NULL,
                        device_id bigint NOT NULL,
                        registration_id bigint NOT NULL,
                        name text NOT NULL,
                        password_hash text NOT NULL,
                        created_at bigint NOT NULL,
                        push_kind text,
                        push_address text,
                        mailbox_seq bigint NOT NULL DEFAULT 0,
                        PRIMARY KEY(account_id, device_id));
                    CREATE TABLE linking_tokens(
                        token_hash bytea PRIMARY KEY,
                        account_id text NOT NULL,
                        expires_at bigint NOT NULL);
                    CREATE INDEX linking_tokens_by_expiry ON linking_tokens(expires_at);
                    CREATE TABLE signed_prekeys(
                        account_id text NOT NULL,
                        device_id bigint NOT NULL,
                        key_id bigint NOT NULL,
                        public_key bytea NOT NULL,
                        signature bytea NOT NULL,
                        PRIMARY KEY(account_id, device_id));
                    CREATE TABLE one_time_prekeys(
                        account_id text NOT NULL,
                        device_id bigint NOT NULL,
                        key_id bigint NOT NULL,
                        public_key bytea NOT NULL,
                        PRIMARY KEY(account_id, device_id, key_id));
                    CREATE TABLE conversations(
                        id text PRIMARY KEY,
                        last_seq bigint NOT NULL);
                    CREATE TABLE sends(
                        account_id text NOT NULL,
                        client_message_id text NOT NULL,
                        destination_account text NOT NULL,
                        server_seq bigint NOT NULL,
                        expires_at bigint NOT NULL,
                        PRIMARY KEY(account_id, client_message_id, destination_account));
                    CREATE INDEX sends_by_expiry ON sends(expires_at);
                    CREATE TABLE mailbox(
                        account_id text NOT NULL,
                        device_id bigint NOT NULL,
                        id bigint NOT NULL,
                        envelope bytea NOT NULL,
                        expires_at bigint NOT NULL,
                        PRIMARY KEY(account_id, device_id, id));
                    CREATE INDEX mailbox_by_expiry ON mailbox(expires_at);
                    CREATE TABLE attachments(
                        id text PRIMARY KEY,
                        account_id text NOT NULL,
                        length bigint NOT NULL,
                        received bigint NOT NULL DEFAULT 0,
                        expires_at bigint NOT NULL);
                    CREATE INDEX attachments_by_expiry ON attachments(expires_at);
                    """),
            .init(
                "attachment ciphertext in the database",
                sql: """
                    CREATE TABLE attachment_parts(
                        attachment_id text NOT NULL REFERENCES attachments(id) ON DELETE CASCADE,
                        start_offset bigint NOT NULL,
                        bytes bytea NOT NULL,
                        PRIMARY KEY(attachment_id, start_offset));
                    """),
            .init(
                "remember each device's last push, for coalescing across instances",
                sql: "ALTER TABLE devices ADD COLUMN last_push_at bigint"),
        ])
}
