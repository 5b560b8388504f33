/// A wake-up push: it tells a device that its mailbox has envelopes and carries nothing else,
/// no sender, no content. The device (or its notification extension) fetches and decrypts.
public struct PushNotification: Sendable, Equatable {
    /// Pushes with the same collapse id replace each other on the device.
    public var collapseId: String

    /// Creates a notification.
    public init(collapseId: String) { self.collapseId = collapseId }
}

/// What a push service said.
public enum PushResult: Sendable, Equatable {
    /// Accepted.
    case sent
    /// The token or endpoint is gone (APNs 410, a webhook's 404 or 410): forget it.
    case unregistered
    /// Anything else; the envelope stays in the mailbox either way.
    case failed(String)
    /// Not sent at all (the sender is at its cap): the device's push window stays open, so the
    /// next envelope for it pushes again.
    case notAttempted(String)
}

/// Sends wake-up pushes to one kind of endpoint.
public protocol PushSender: Sendable {
    /// Sends `notification` to `endpoint`.
    func send(_ notification: PushNotification, to endpoint: PushEndpoint) async -> PushResult
}
