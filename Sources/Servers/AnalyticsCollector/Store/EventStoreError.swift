import CourierCore
import CourierHTTP

/// Why an `EventStore` failed: storage terms, not HTTP ones. The collector turns it into a
/// `503 storage_unavailable` whose message names the kind, never the store's own text.
public struct EventStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Kind: Sendable, Equatable {
        /// The disk (or the store's size limit) is full.
        case full
        /// The store's files are damaged.
        case corrupt
        /// Anything else: I/O, locks, a closed store.
        case unavailable
    }

    /// The kind.
    public let kind: Kind
    /// The store's own description, for logs only.
    public let detail: String

    /// Creates an error.
    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// Classifies a database error.
    init(_ error: DatabaseError) {
        if error.isDiskFull {
            self.init(.full, detail: error.description)
        } else if error.isCorrupt {
            self.init(.corrupt, detail: error.description)
        } else {
            self.init(.unavailable, detail: error.description)
        }
    }

    /// `kind: detail`.
    public var description: String { "\(kind): \(detail)" }
}

extension HTTPError {
    /// The answer for a failed store: its kind, never its text.
    public init(_ error: EventStoreError) {
        switch error.kind {
        case .full:
            self.init(.storageUnavailable, "the event store is full; nothing was stored", retryAfterSeconds: 30)
        case .corrupt, .unavailable:
            self.init(.storageUnavailable, "the event store is unavailable; nothing was stored", retryAfterSeconds: 5)
        }
    }
}
