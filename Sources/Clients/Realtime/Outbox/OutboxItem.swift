/// Where an outgoing item is: sending → sent (acknowledged with its `serverSeq`) → delivered →
/// read, or failed after too many attempts (the app may retry it by hand).
public enum OutboxState: String, Sendable, Hashable, CaseIterable {
    /// Stored locally, waiting for its ack (retried with backoff).
    case sending
    /// The server acknowledged it and gave it a `serverSeq`.
    case sent
    /// A recipient's device has it.
    case delivered
    /// A recipient read it.
    case read
    /// It failed `maximumAttempts` times; it no longer blocks the rest. `retry` sends it again.
    case failed

    /// How far along the happy path the state is (`failed` below `sending`).
    var rank: Int {
        switch self {
        case .failed: 0
        case .sending: 1
        case .sent: 2
        case .delivered: 3
        case .read: 4
        }
    }
}

/// One outgoing item of the persisted outbox.
public struct OutboxItem: Sendable, Hashable {
    /// The client's id for it, kept across every retry: the server's idempotency key.
    public let clientId: String
    /// Its place in the outbox (first in, first out).
    public let position: Int64
    /// Where it goes (an account, a conversation, a topic: the protocol adapter decides).
    public let destination: String
    /// Its payload, as the protocol adapter sends it.
    public let payload: [UInt8]
    /// Where it is.
    public var state: OutboxState
    /// Failed attempts so far.
    public var attempts: Int
    /// The server's sequence number, once acknowledged.
    public var serverSeq: Int64?
    /// Why the last attempt failed.
    public var lastError: String?
}

/// How the outbox retries.
public struct OutboxPolicy: Sendable {
    /// An item with no ack this long after it went out counts as a failed attempt.
    public var acknowledgementTimeout: Duration = .seconds(10)
    /// Attempts before an item goes to `failed`.
    public var maximumAttempts = 5
    /// The delay before a failed item is sent again (full jitter).
    public var retryBase: Duration = .seconds(1)
    /// The largest retry delay.
    public var retryCap: Duration = .seconds(60)
    /// Items sent at once without their ack.
    public var maximumInFlight = 64

    /// 10 s to ack, five attempts, retries from 1 s to 60 s, 64 in flight.
    public init() {}
}
