import CourierCore
import SyncWire

/// The sync store's statements, one text for both engines (tables and columns are named alike
/// in both schemas), and how a row becomes a record.
package enum SyncSQL {
    /// Answers kept per client for replays of lost acknowledgements, beyond the last sequence.
    static let keptResultsPerClient: Int64 = 10_000

    /// The columns `record(_:)` reads, in its order.
    static let recordColumns = "collection, id, version, fields, deleted, hlc"

    /// Creates the owner's row if it is new and locks it until the push commits: on PostgreSQL
    /// a second push for the owner waits here for the first to commit, so it reads what the
    /// first wrote (no lost update of a record both based on the same version) and the feed
    /// positions it takes below become visible in the order they were taken.
    package static let lockOwner = SQLStatement(
        """
        INSERT INTO sync_owners(owner, next_position, horizon) VALUES ($1, 1, 0)
        ON CONFLICT(owner) DO UPDATE SET next_position = sync_owners.next_position
        """)

    /// The owner's next feed position, from its counter row (never from an identity column,
    /// whose values commit out of order and would let a reader's cursor skip a late row).
    package static let takePosition = SQLStatement(
        "UPDATE sync_owners SET next_position = next_position + 1 WHERE owner = $1 RETURNING next_position - 1")

    static let latestPosition = SQLStatement("SELECT next_position - 1 FROM sync_owners WHERE owner = $1")
    static let horizon = SQLStatement("SELECT horizon FROM sync_owners WHERE owner = $1")
    static let lastSequence = SQLStatement(
        "SELECT last_sequence FROM sync_clients WHERE owner = $1 AND client_id = $2")
    static let storedResult = SQLStatement("SELECT result FROM sync_results WHERE owner = $1 AND op_id = $2")
    static let keepResult = SQLStatement(
        "INSERT INTO sync_results(owner, op_id, client_id, sequence, result) VALUES ($1, $2, $3, $4, $5)")
    static let keepLastSequence = SQLStatement(
        """
        INSERT INTO sync_clients(owner, client_id, last_sequence) VALUES ($1, $2, $3)
        ON CONFLICT(owner, client_id) DO UPDATE SET last_sequence = excluded.last_sequence
        """)
    static let forgetOldResults = SQLStatement(
        "DELETE FROM sync_results WHERE owner = $1 AND client_id = $2 AND sequence < $3")

    static let record = SQLStatement(
        "SELECT \(recordColumns) FROM sync_records WHERE owner = $1 AND collection = $2 AND id = $3")
    static let historic = SQLStatement(
        "SELECT \(recordColumns) FROM sync_history WHERE owner = $1 AND collection = $2 AND id = $3 AND version = $4")
    static let writeRecord = SQLStatement(
        """
        INSERT INTO sync_records(owner, collection, id, version, fields, deleted, hlc, position, written_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT(owner, collection, id) DO UPDATE SET version = excluded.version, fields = excluded.fields,
            deleted = excluded.deleted, hlc = excluded.hlc, position = excluded.position,
            written_at = excluded.written_at
        """)
    static let writeHistory = SQLStatement(
        """
        INSERT INTO sync_history(owner, collection, id, version, fields, deleted, hlc, written_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT(owner, collection, id, version) DO UPDATE SET fields = excluded.fields,
            deleted = excluded.deleted, hlc = excluded.hlc, written_at = excluded.written_at
        """)

    static let changes = SQLStatement(
        """
        SELECT \(recordColumns), position FROM sync_records
        WHERE owner = $1 AND position > $2 ORDER BY position LIMIT $3
        """)
    static let liveRecords = SQLStatement(
        "SELECT \(recordColumns) FROM sync_records WHERE owner = $1 AND deleted = 0 ORDER BY collection, id")
    static let recordsAbove = SQLStatement(
        """
        SELECT \(recordColumns) FROM sync_records WHERE owner = $1 AND collection = $2 AND deleted = 0
        AND id > $3 ORDER BY id LIMIT $4
        """)
    static let recordsBelow = SQLStatement(
        """
        SELECT \(recordColumns) FROM sync_records WHERE owner = $1 AND collection = $2 AND deleted = 0
        AND id < $3 ORDER BY id DESC LIMIT $4
        """)

    /// Moves each owner's horizon past its newest tombstone written before `$1`.
    static let raiseHorizons = SQLStatement(
        """
        UPDATE sync_owners SET horizon = collected.position
        FROM (SELECT owner, max(position) AS position FROM sync_records WHERE deleted = 1 AND written_at < $1
            GROUP BY owner) AS collected
        WHERE sync_owners.owner = collected.owner AND sync_owners.horizon < collected.position
        """)
    static let deleteTombstones = SQLStatement("DELETE FROM sync_records WHERE deleted = 1 AND written_at < $1")
    static let deleteHistory = SQLStatement("DELETE FROM sync_history WHERE written_at < $1")

    /// Keeps a new cursor key unless a usable one is stored (another instance may have stored
    /// its own a moment ago: both then sign with that one).
    static let offerCursorKey = SQLStatement(
        """
        INSERT INTO sync_meta(key, value) VALUES ('cursor_key', $1)
        ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE length(sync_meta.value) < 32
        """)
    static let cursorKey = SQLStatement("SELECT value FROM sync_meta WHERE key = 'cursor_key'")

    /// A row of `recordColumns` as a record.
    static func record(_ row: some DatabaseRow) throws -> SyncRecord {
        let fields = try JSONParser.parse(row.text(3) ?? "{}").objectValue ?? [:]
        return SyncRecord(
            collection: row.text(0) ?? "", id: row.text(1) ?? "", version: row.int(2), fields: fields,
            deleted: row.int(4) != 0, hlc: row.text(5) ?? "")
    }
}
