import CourierCore

/// What a public call hands to the pipeline: a copy of its arguments, nothing shared.
enum Command: Sendable {
    case event(
        kind: AnalyticsEvent.Kind, name: String?, properties: [String: JSONValue], timestamp: Int64,
        extra: EventExtra)
    case setConsent(Consent)
    case flush
    case flushed(CheckedContinuation<FlushResult, Never>)
    case reset
    case lifecycle(LifecycleEvent)
}

/// The arguments only some kinds have.
struct EventExtra: Sendable {
    var userId: String?
    var groupId: String?
}

/// App lifecycle moments the SDK reacts to.
enum LifecycleEvent: Sendable {
    case background, foreground, terminate
}

/// The state of the queue when `flushed()` returns.
public struct FlushResult: Sendable, Equatable {
    /// Events still queued (0 when everything was delivered).
    public let remaining: Int
    /// Whether the last upload attempt was refused or failed (so `remaining` will be retried).
    public let blocked: Bool
    /// The last upload attempt of this instance and its answer, or `nil` before the first one.
    public let lastUpload: UploadAttempt?

    init(remaining: Int, blocked: Bool, lastUpload: UploadAttempt? = nil) {
        self.remaining = remaining
        self.blocked = blocked
        self.lastUpload = lastUpload
    }
}
