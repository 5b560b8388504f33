import CourierCore

/// Sync's tables in SQLite; `PostgresSyncSchema` has the same tables and columns.
enum SQLiteSyncSchema {
    static let migrator = Migrator([
        .init(
            "create sync records, history, clients, results and owners",
            sql: """
                CREATE TABLE sync_records(
                    owner TEXT NOT NULL, collection TEXT NOT NULL, id TEXT NOT NULL,
                    version INTEGER NOT NULL, fields TEXT NOT NULL, deleted INTEGER NOT NULL,
                    hlc TEXT NOT NULL, position INTEGER NOT NULL, written_at INTEGER NOT NULL,
                    PRIMARY KEY(owner, collection, id)
                ) WITHOUT ROWID;
                CREATE UNIQUE INDEX sync_records_by_position ON sync_records(owner, position);
                CREATE TABLE sync_history(
                    owner TEXT NOT NULL, collection TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL,
                    fields TEXT NOT NULL, deleted INTEGER NOT NULL, hlc TEXT NOT NULL, written_at INTEGER NOT NULL,
                    PRIMARY KEY(owner, collection, id, version)
                ) WITHOUT ROWID;
                CREATE TABLE sync_clients(
                    owner TEXT NOT NULL, client_id TEXT NOT NULL, last_sequence INTEGER NOT NULL,
                    PRIMARY KEY(owner, client_id)
                ) WITHOUT ROWID;
                CREATE TABLE sync_results(
                    owner TEXT NOT NULL, op_id TEXT NOT NULL, client_id TEXT NOT NULL, sequence INTEGER NOT NULL,
                    result TEXT NOT NULL, PRIMARY KEY(owner, op_id)
                ) WITHOUT ROWID;
                CREATE INDEX sync_results_by_client ON sync_results(owner, client_id, sequence);
                CREATE TABLE sync_owners(
                    owner TEXT PRIMARY KEY, next_position INTEGER NOT NULL, horizon INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sync_meta(key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
                """)
    ])
}
