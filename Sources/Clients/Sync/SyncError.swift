import CourierCore

/// An error of the sync client.
public typealias SyncError = CodedError<SyncErrorCode>

/// A stable reason for a sync failure. New codes may be added.
public struct SyncErrorCode: ErrorCode {
    /// The code's text.
    public let name: String
    private init(_ name: String) { self.name = name }

    /// The server could not be reached, failed (5xx) or asked for a pause (429): retry later
    /// (not before `retryAfter`, when the server said); nothing is lost.
    public static let transport = Self("transport")
    /// The server refused the token.
    public static let unauthorized = Self("unauthorized")
    /// The cursor is older than the server's tombstone horizon: resync from a snapshot
    /// (the cycle does so by itself).
    public static let mustRefetch = Self("must_refetch")
    /// The server answered something the protocol does not allow.
    public static let invalidResponse = Self("invalid_response")
    /// After a resync the local record set does not match the snapshot's checksum; nothing
    /// was changed.
    public static let checksumMismatch = Self("checksum_mismatch")
    /// The local store failed.
    public static let storage = Self("storage")
    /// The caller asked for something that does not exist or is malformed.
    public static let invalidArgument = Self("invalid_argument")
}

/// The wait a server asked for with a failure (its `Retry-After`), carried as a `.transport`
/// error's `underlying`.
public struct SyncRetryAfter: Error, Sendable, Hashable {
    /// How long the server asked to be left alone.
    public let delay: Duration

    /// The wait `delay`.
    public init(_ delay: Duration) { self.delay = delay }
}

extension CodedError where CodeType == SyncErrorCode {
    /// How long the server asked the client to wait before it tries again (its `Retry-After`),
    /// when it said.
    public var retryAfter: Duration? { (underlying as? SyncRetryAfter)?.delay }
}
