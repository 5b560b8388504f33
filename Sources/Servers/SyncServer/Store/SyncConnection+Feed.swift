import CourierCore
import Pagination
import SyncWire

extension SQLConnection {
    /// `SyncStore.changes`, inside the caller's read transaction (one snapshot for the horizon
    /// and the rows).
    func changes(owner: String, since: Int64, limit: Int) throws -> SyncChanges {
        let horizon = try query(SyncSQL.horizon, [.text(owner)]) { $0.int(0) }.first ?? 0
        if since < horizon { throw SyncStoreError.horizonPassed }
        var rows = try query(SyncSQL.changes, [.text(owner), .integer(since), .integer(Int64(limit) + 1)]) { row in
            (try SyncSQL.record(row), row.int(6))
        }
        let hasMore = rows.count > limit
        if hasMore { rows.removeLast() }
        return SyncChanges(records: rows.map(\.0), position: rows.last?.1 ?? since, hasMore: hasMore)
    }

    /// `SyncStore.snapshot`, inside the caller's read transaction.
    func snapshot(owner: String) throws -> SyncSnapshot {
        let position = try latestPosition(owner: owner)
        let records = try query(SyncSQL.liveRecords, [.text(owner)]) { try SyncSQL.record($0) }
        return SyncSnapshot(records: records, position: position)
    }

    /// `SyncStore.latestPosition`.
    func latestPosition(owner: String) throws -> Int64 {
        try query(SyncSQL.latestPosition, [.text(owner)]) { $0.int(0) }.first ?? 0
    }

    /// `SyncStore.records`.
    func records(owner: String, collection: String, below: String?, above: String?, limit: Int) throws
        -> [SyncRecord]
    {
        let (statement, bound) =
            above.map { (SyncSQL.recordsAbove, $0) } ?? (SyncSQL.recordsBelow, below ?? "\u{10FFFF}")
        return try query(
            statement, [.text(owner), .text(collection), .text(bound), .integer(Int64(limit))]
        ) { try SyncSQL.record($0) }
    }

    /// `SyncStore.collectTombstones`, inside the caller's write transaction.
    func collectTombstones(before: Int64) throws -> Int {
        try run(SyncSQL.raiseHorizons, [.integer(before)])
        let collected = try run(SyncSQL.deleteTombstones, [.integer(before)])
        try run(SyncSQL.deleteHistory, [.integer(before)])
        return collected
    }

    /// `SyncStore.cursorKey`, inside the caller's write transaction.
    func cursorKey() throws -> [UInt8] {
        let offered = PageCursorSigner.newKey()
        try run(SyncSQL.offerCursorKey, [.blob(offered)])
        return try query(SyncSQL.cursorKey, []) { $0.bytes(0) }.first ?? offered
    }
}
