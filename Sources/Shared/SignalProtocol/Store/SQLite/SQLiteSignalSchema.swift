internal import CourierCore

/// The tables of `SQLiteSignalStore`. Records are blobs in the module's `Storage/` format; the
/// keys beside them are only what lookups need.
enum SQLiteSignalSchema {
    /// Migrations are applied by name; append, never edit or rename.
    static let migrator = Migrator([
        .init(
            "signal stores v1",
            sql: """
                CREATE TABLE signal_local_identity (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    key_pair BLOB NOT NULL,
                    registration_id INTEGER NOT NULL
                );
                CREATE TABLE signal_sessions (
                    name TEXT NOT NULL,
                    device_id INTEGER NOT NULL,
                    record BLOB NOT NULL,
                    PRIMARY KEY (name, device_id)
                ) WITHOUT ROWID;
                CREATE TABLE signal_prekeys (
                    id INTEGER PRIMARY KEY,
                    record BLOB NOT NULL
                );
                CREATE TABLE signal_signed_prekeys (
                    id INTEGER PRIMARY KEY,
                    record BLOB NOT NULL
                );
                CREATE TABLE signal_identities (
                    name TEXT NOT NULL,
                    device_id INTEGER NOT NULL,
                    identity_key BLOB NOT NULL,
                    PRIMARY KEY (name, device_id)
                ) WITHOUT ROWID;
                CREATE TABLE signal_sender_keys (
                    group_id TEXT NOT NULL,
                    sender_name TEXT NOT NULL,
                    sender_device_id INTEGER NOT NULL,
                    record BLOB NOT NULL,
                    PRIMARY KEY (group_id, sender_name, sender_device_id)
                ) WITHOUT ROWID;
                """),
        // Records became sealed (encrypted at rest). The table only marks that rows written before
        // may still be plain; the store seals them once on open and drops it.
        .init(
            "signal stores v2: seal records",
            sql: "CREATE TABLE IF NOT EXISTS signal_records_to_seal (id INTEGER PRIMARY KEY);"),
    ])
}
