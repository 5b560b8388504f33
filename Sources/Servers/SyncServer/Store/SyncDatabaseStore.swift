import CourierCore
import SyncWire

/// A sync store on one of the engines: it opens its engine's transactions, and the logic
/// written once against `SQLConnection` runs inside them. `SQLiteSyncStore` and
/// `PostgresSyncStore` get their `SyncStore` methods here.
protocol SyncDatabaseStore: SyncStore, SQLDatabaseStore {}

extension SyncDatabaseStore {
    /// See `SyncStore.push`.
    public func push(
        owner: String, clientID: String, operations: [SyncOperation], now: Int64,
        validate: (SyncOperation) -> String?
    ) throws -> [SyncOpResult] {
        try writing { db in
            try db.push(owner: owner, clientID: clientID, operations: operations, now: now, validate: validate)
        }
    }

    /// See `SyncStore.changes`.
    public func changes(owner: String, since: Int64, limit: Int) throws -> SyncChanges {
        try reading { db in try db.changes(owner: owner, since: since, limit: limit) }
    }

    /// See `SyncStore.snapshot`.
    public func snapshot(owner: String) throws -> SyncSnapshot {
        try reading { db in try db.snapshot(owner: owner) }
    }

    /// See `SyncStore.latestPosition`.
    public func latestPosition(owner: String) throws -> Int64 {
        try reading { db in try db.latestPosition(owner: owner) }
    }

    /// See `SyncStore.records`.
    public func records(owner: String, collection: String, below: String?, above: String?, limit: Int) throws
        -> [SyncRecord]
    {
        try reading { db in
            try db.records(owner: owner, collection: collection, below: below, above: above, limit: limit)
        }
    }

    /// See `SyncStore.collectTombstones`.
    public func collectTombstones(before: Int64) throws -> Int {
        try writing { db in try db.collectTombstones(before: before) }
    }

    /// See `SyncStore.cursorKey`.
    public func cursorKey() throws -> [UInt8] {
        try writing { db in try db.cursorKey() }
    }
}
