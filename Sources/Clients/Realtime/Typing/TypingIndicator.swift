import CourierCore

/// A typing signal for the peer: ephemeral, sent on the socket, never stored.
public enum TypingSignal: Sendable, Hashable {
    /// The user is typing (sent again every `refreshInterval` while typing goes on).
    case started
    /// The user stopped (idle for `stopAfter`, or the message was sent).
    case stopped
}

/// The sending side of typing indicators, debounced: keystrokes become one `started` (refreshed
/// now and then so the peer's expiry does not fire) and one `stopped` after a pause. Times are
/// monotonic nanoseconds from the caller's `Clock`.
public struct TypingDebouncer: Sendable {
    /// Pause after which typing counts as stopped.
    public var stopAfter: Duration = .seconds(3)
    /// While typing goes on, `started` is sent again this often (below the peer's 5 s expiry).
    public var refreshInterval: Duration = .seconds(4)
    private var lastStarted: UInt64?
    private var lastKeystroke: UInt64 = 0

    /// Not typing.
    public init() {}

    /// A keystroke at `now`: returns `started` when the peer must hear it.
    public mutating func keystroke(at now: UInt64) -> TypingSignal? {
        lastKeystroke = now
        if let lastStarted, now &- lastStarted < UInt64(max(0, refreshInterval.wholeNanoseconds)) { return nil }
        lastStarted = now
        return .started
    }

    /// A tick at `now` (call it from a timer): returns `stopped` once the pause is long enough.
    public mutating func tick(at now: UInt64) -> TypingSignal? {
        guard lastStarted != nil, now &- lastKeystroke >= UInt64(max(0, stopAfter.wholeNanoseconds)) else { return nil }
        lastStarted = nil
        return .stopped
    }

    /// The message was sent: returns `stopped` if the peer thinks the user is typing.
    public mutating func sent() -> TypingSignal? {
        guard lastStarted != nil else { return nil }
        lastStarted = nil
        return .stopped
    }
}

/// The receiving side: who is typing, each entry expiring `expiry` after its last `started`
/// (so a lost `stopped` cannot leave an indicator on forever). Held in memory only.
public struct TypingRoster: Sendable {
    /// How long a `started` holds without a refresh.
    public var expiry: Duration = .seconds(5)
    private var startedAt: [String: UInt64] = [:]

    /// Nobody typing.
    public init() {}

    /// Applies `signal` from `peer` received at `now`.
    public mutating func apply(_ signal: TypingSignal, from peer: String, at now: UInt64) {
        switch signal {
        case .started: startedAt[peer] = now
        case .stopped: startedAt[peer] = nil
        }
    }

    /// The peers typing at `now`, sorted; expired entries are forgotten.
    public mutating func typing(at now: UInt64) -> [String] {
        let limit = UInt64(max(0, expiry.wholeNanoseconds))
        startedAt = startedAt.filter { now &- $0.value < limit }
        return startedAt.keys.sorted()
    }
}
