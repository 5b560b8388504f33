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
    /// The subscriber, in a box: a closure read out of a `Mutex` as a value was re-wrapped in a
    /// reabstraction thunk on every read, and the chain of thunks grew with each notification.
    private final class Subscriber: Sendable {
        let handler: @Sendable (AuthenticatedDevice) -> Void
        init(_ handler: @escaping @Sendable (AuthenticatedDevice) -> Void) { self.handler = handler }
    }

    private let subscriber = Mutex<Subscriber?>(nil)

    /// Creates a notifier with no subscriber.
    public init() {}

    public func mailboxChanged(_ device: AuthenticatedDevice) {
        subscriber.withLock { $0 }?.handler(device)
    }

    public func subscribe(_ handler: @escaping @Sendable (AuthenticatedDevice) -> Void) {
        subscriber.withLock { $0 = Subscriber(handler) }
    }
}
