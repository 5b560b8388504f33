/// The collector's dedupe memory: which `(writeKey, messageId)` pairs were stored recently, as a
/// 64-bit hash mapped to the row id of the stored event.
///
/// The events table is the durable record (each row carries its write key, `messageId` and
/// `receivedAt`), so remembering a message costs no write of its own: the index lives in memory,
/// is rebuilt from the events of the last window at start, and a hash that matches is confirmed
/// by reading that one row, so a hash collision never drops a real event. Entries sit in
/// partitions by `receivedAt` (an eighth of the window wide); forgetting what is older than the
/// window drops whole partitions, so no insert pays for pruning.
///
/// About 23–46 bytes of memory per event received within the window (two 64-bit words per
/// slot, at a load factor between 0.35 and 0.7), plus at most one partition's worth of events
/// that are older than the window but not dropped yet.
struct SeenMessageIndex {
    /// One slice of the window: key hashes to row ids (`RowIDTable`).
    typealias Partition = RowIDTable

    /// Milliseconds of `receivedAt` each partition covers.
    let partitionWidth: Int64
    /// Partitions by their first millisecond.
    private(set) var partitions: [Int64: Partition] = [:]
    /// Whether the index was filled from the events table since the store was opened.
    var isLoaded = false

    /// - Parameter window: the dedupe window in milliseconds; partitions are an eighth of it.
    init(window: Int64) {
        partitionWidth = max(1, window / 8)
    }

    /// Entries held, across partitions.
    var count: Int { partitions.values.reduce(0) { $0 + $1.count } }

    /// The hash a message is filed under.
    static func key(writeKey: String, messageId: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(writeKey)
        hasher.combine(messageId)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The first millisecond of the partition holding `receivedAt`.
    func partition(of receivedAt: Int64) -> Int64 {
        let index = receivedAt >= 0 ? receivedAt / partitionWidth : (receivedAt - partitionWidth + 1) / partitionWidth
        return index * partitionWidth
    }

    /// Calls `body` with each row id filed under `key`, in any partition, until it returns `true`.
    /// Returns whether it did.
    func contains(_ key: UInt64, where body: (Int64) throws -> Bool) rethrows -> Bool {
        for partition in partitions.values where try partition.contains(key, where: body) { return true }
        return false
    }

    /// Files row `id` under `key` in the partition of `receivedAt`.
    mutating func insert(key: UInt64, id: Int64, receivedAt: Int64) {
        partitions[partition(of: receivedAt), default: Partition()].insert(key: key, id: id)
    }

    /// Drops every partition whose events were all received before `cutoff`. Returns how many
    /// entries were forgotten.
    @discardableResult
    mutating func forget(before cutoff: Int64) -> Int {
        var forgotten = 0
        for (start, partition) in partitions where start + partitionWidth <= cutoff {
            forgotten += partition.count
            partitions[start] = nil
        }
        return forgotten
    }
}
