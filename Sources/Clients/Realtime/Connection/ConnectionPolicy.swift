import CourierCore

/// The timings of a realtime connection.
public struct ConnectionPolicy: Sendable {
    /// Reconnect delays: dₙ = random(0, min(cap, base·2ⁿ)) (full jitter).
    public var backoff = Backoff(base: .seconds(1), cap: .seconds(30))
    /// When set, every reconnect waits exactly this long instead of the jittered `backoff` delay,
    /// and the wait never grows: the naive policy that turns a server restart into synchronized
    /// waves of attempts. Off (`nil`) by default; for comparisons such as `courier-bench realtime`.
    public var fixedReconnectDelay: Duration?
    /// How long a connection must stay live before n goes back to 0; a connection that drops
    /// sooner keeps growing the window, so a server that accepts and then fails is not hammered.
    public var stableAfter: Duration = .seconds(30)
    /// A keepalive ping goes out this often while live.
    public var pingInterval: Duration = .seconds(25)
    /// This many pings without an answer count as a half-open connection: drop and reconnect.
    public var missedPongsBeforeDrop = 2

    /// Windows from 1 s to 30 s, stable after 30 s, a ping every 25 s, dropped after two missed pongs.
    public init() {}
}
