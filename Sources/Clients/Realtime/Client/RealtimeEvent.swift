/// What a `RealtimeConnection` reports to the app.
public enum RealtimeEvent: Sendable, Hashable {
    /// The connection moved to a new state.
    case state(ConnectionState)
    /// A new item arrived (stored before it is acknowledged; duplicates are not reported).
    case received(IncomingItem)
    /// An outbox item changed state (`sent` with its `serverSeq`, or `failed`).
    case outbox(clientId: String, state: OutboxState, serverSeq: Int64?)
}
