import CourierCore
import CourierPostgres

/// Sync's tables on PostgreSQL: the SQLite schema's tables and columns, with collections and ids
/// compared byte by byte (`COLLATE "C"`) as SQLite does (see `PostgresSyncStore`).
enum PostgresSyncSchema {
    static let migrator = PostgresMigrator(
        scope: "sync",
        [
            .init(
                "create sync records, history, clients, results and owners",
                sql: """
                    CREATE TABLE sync_records(
                        owner text NOT NULL, collection text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL,
                        version bigint NOT NULL, fields text NOT NULL, deleted bigint NOT NULL,
                        hlc text NOT NULL, position bigint NOT NULL, written_at bigint NOT NULL,
                        PRIMARY KEY(owner, collection, id));
                    CREATE UNIQUE INDEX sync_records_by_position ON sync_records(owner, position);
                    CREATE INDEX sync_records_tombstones ON sync_records(written_at) WHERE deleted = 1;
                    CREATE TABLE sync_history(
                        owner text NOT NULL, collection text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL,
                        version bigint NOT NULL, fields text NOT NULL, deleted bigint NOT NULL, hlc text NOT NULL,
                        written_at bigint NOT NULL, PRIMARY KEY(owner, collection, id, version));
                    CREATE INDEX sync_history_by_age ON sync_history(written_at);
                    CREATE TABLE sync_clients(
                        owner text NOT NULL, client_id text NOT NULL, last_sequence bigint NOT NULL,
                        PRIMARY KEY(owner, client_id));
                    CREATE TABLE sync_results(
                        owner text NOT NULL, op_id text NOT NULL, client_id text NOT NULL, sequence bigint NOT NULL,
                        result text NOT NULL, PRIMARY KEY(owner, op_id));
                    CREATE INDEX sync_results_by_client ON sync_results(owner, client_id, sequence);
                    CREATE TABLE sync_owners(owner text PRIMARY KEY, next_position bigint NOT NULL, horizon bigint NOT NULL);
                    CREATE TABLE sync_meta(key text PRIMARY KEY, value bytea NOT NULL);
                    """)
        ])
}
