import Synchronization

/// The one seam through which "this device's mailbox has new envelopes" travels. The local
/// notifier calls the instance's own subscriber; a Redis or NATS notifier would publish to every
/// instance, each of which delivers to the sockets it holds.
public protocol MailboxNotifier: Sendable {
    /// Announces new envelopes for `device`.
    func mailboxChanged(_ device: AuthenticatedDevice)
    /// Sets what runs for each announcement that reaches this instance.
    func subscribe(_ handler: @escaping @Sendable (AuthenticatedDevice) -> Void)
}

/// One instance: announcements go straight to its subscriber.
public final class LocalMailboxNotifier: MailboxNotifier {
    private let handler = Mutex<(@Sendable (AuthenticatedDevice) -> Void)?>(nil)

    /// Creates a notifier with no subscriber.
    public init() {}

    public func mailboxChanged(_ device: AuthenticatedDevice) {
        handler.withLock { $0 }?(device)
    }

    public func subscribe(_ handler: @escaping @Sendable (AuthenticatedDevice) -> Void) {
        self.handler.withLock { $0 = handler }
    }
}
