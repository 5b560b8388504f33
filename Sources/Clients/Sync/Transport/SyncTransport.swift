import SyncWire

/// One pull: records written after the cursor, and the cursor after them.
public struct SyncPull: Sendable {
    /// Records (tombstones included) in write order.
    public var records: [SyncRecord]
    /// The cursor to pull from next.
    public var cursor: String
    /// Whether more changes wait.
    public var hasMore: Bool

    /// Creates a pull.
    public init(records: [SyncRecord], cursor: String, hasMore: Bool) {
        self.records = records
        self.cursor = cursor
        self.hasMore = hasMore
    }
}

/// Every live record, for a client past the tombstone horizon.
public struct SyncSnapshotAnswer: Sendable {
    /// The live records.
    public var records: [SyncRecord]
    /// The cursor the snapshot reflects.
    public var cursor: String
    /// `RecordSetChecksum` of the records, which the client's set must equal after the resync.
    public var checksum: String

    /// Creates a snapshot answer.
    public init(records: [SyncRecord], cursor: String, checksum: String) {
        self.records = records
        self.cursor = cursor
        self.checksum = checksum
    }
}

/// How the client reaches the sync server: HTTP in an app, a fault-injecting wrapper in tests.
public protocol SyncTransport: Sendable {
    /// Sends operations; one result per operation, in order.
    /// - Throws: `SyncError` (`.transport` when the answer may or may not have been applied).
    func push(clientID: String, operations: [SyncOperation]) async throws(SyncError) -> [SyncOpResult]
    /// Pulls changes after `cursor` (`nil`: from the beginning).
    /// - Throws: `SyncError.mustRefetch` past the tombstone horizon.
    func changes(since cursor: String?, limit: Int) async throws(SyncError) -> SyncPull
    /// Every live record.
    func snapshot() async throws(SyncError) -> SyncSnapshotAnswer
    /// Waits (up to `wait`) until something was written after `cursor`.
    func poke(since cursor: String?, wait: Duration) async throws(SyncError) -> Bool
}
