import Synchronization

/// Where contact trust records are kept; the messenger's own database implements it so trust
/// changes commit with the rest of its state.
public protocol ContactTrustStore: Sendable {
    /// The record for `contact`, or nil.
    func record(for contact: String) throws -> ContactTrustRecord?
    /// Inserts or replaces `record`.
    func save(_ record: ContactTrustRecord) throws
}

/// Records in memory, for tests and for apps that keep trust elsewhere.
public final class InMemoryContactTrustStore: ContactTrustStore {
    private let records = Mutex<[String: ContactTrustRecord]>([:])

    /// Creates an empty store.
    public init() {}

    /// The record for `contact`, or nil.
    public func record(for contact: String) -> ContactTrustRecord? { records.withLock { $0[contact] } }

    /// Inserts or replaces `record`.
    public func save(_ record: ContactTrustRecord) { records.withLock { $0[record.contact] = record } }
}
