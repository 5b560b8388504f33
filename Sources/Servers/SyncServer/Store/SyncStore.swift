import SyncWire

/// The server's sync state: records per owner with versions, their history (conflict
/// ancestors), the last operation processed per client, tombstones and the changes feed.
///
/// SQLite now (`SQLiteSyncStore`); a PostgreSQL store implements the same protocol.
public protocol SyncStore: Sendable {
    /// Applies a client's operations in order, in one transaction: each is answered once (a
    /// repeated op id gets its first answer back) and the client's last processed sequence is
    /// kept with them.
    /// - Parameters:
    ///   - validate: returns a reason to reject an operation for good, or `nil`.
    ///   - now: milliseconds since 1970, the time of the writes (for tombstone GC).
    func push(
        owner: String, clientID: String, operations: [SyncOperation], now: Int64,
        validate: (SyncOperation) -> String?
    ) throws -> [SyncOpResult]

    /// Records (tombstones included) written after `since`, in write order, at most `limit`.
    /// - Throws: `SyncStoreError.horizonPassed` when tombstones after `since` were collected.
    func changes(owner: String, since: Int64, limit: Int) throws -> SyncChanges

    /// Every live record and the feed position it reflects.
    func snapshot(owner: String) throws -> SyncSnapshot

    /// The position of the owner's latest write (0 when none).
    func latestPosition(owner: String) throws -> Int64

    /// Live records of one collection by id, for the list endpoint.
    /// - Parameters:
    ///   - below: ids lower than this, highest first; `above`: ids higher, lowest first.
    func records(owner: String, collection: String, below: String?, above: String?, limit: Int) throws
        -> [SyncRecord]

    /// Deletes tombstones and history written before `before` and moves each owner's horizon
    /// past them; returns how many tombstones went.
    func collectTombstones(before: Int64) throws -> Int

    /// The key that signs cursors, made once and kept, so cursors survive restarts.
    func cursorKey() throws -> [UInt8]
}

/// One pull's worth of changes.
public struct SyncChanges: Sendable {
    /// The records in write order.
    public var records: [SyncRecord]
    /// The feed position after the last record (or `since` when there are none).
    public var position: Int64
    /// Whether more changes wait beyond `limit`.
    public var hasMore: Bool

    /// Creates a page of changes.
    public init(records: [SyncRecord], position: Int64, hasMore: Bool) {
        self.records = records
        self.position = position
        self.hasMore = hasMore
    }
}

/// Every live record of an owner, for a client that must refetch.
public struct SyncSnapshot: Sendable {
    /// The live records.
    public var records: [SyncRecord]
    /// The feed position the snapshot reflects: pull from here afterwards.
    public var position: Int64

    /// Creates a snapshot.
    public init(records: [SyncRecord], position: Int64) {
        self.records = records
        self.position = position
    }
}

/// A store answer the routes turn into a typed HTTP error.
public enum SyncStoreError: Error, Sendable, Equatable {
    /// Tombstones after the asked position were collected: refetch a snapshot.
    case horizonPassed
}
