/// What the driver must do after an event, in order.
public enum ConnectionAction: Sendable, Hashable {
    /// Open the socket; report `.opened` or `.failed`.
    case open
    /// Close the socket, if one is open.
    case close
    /// Start (or restart) `timer` to fire after `after`.
    case startTimer(ConnectionTimer, after: Duration)
    /// Cancel `timer` if it runs.
    case cancelTimer(ConnectionTimer)
    /// Send a keepalive ping.
    case sendPing
    /// Ask the server for everything after the stored cursor (`since: lastSeq`).
    case resume
    /// Send the outbox's due items, oldest first.
    case flushOutbox
}
