import Synchronization

/// The seam through which instances of a server wake each other: "a device's mailbox got mail",
/// "a batch committed", "a flag changed", "a sync owner was poked", and presence as "did anyone
/// answer". Delivery is at most once, so every user has a fallback (a read on subscribe, a slow
/// poll). `LocalMessageBus` serves one process; `NATSMessageBus` (CourierNATS) spans instances.
///
/// Subjects are dot-separated tokens, as in NATS: `mbx.<account>.<device>`. A subscription may
/// use `*` for one token and a final `>` for one or more. Build tokens from client-supplied text
/// with `BusSubject.token(_:)`.
///
/// ```swift
/// let subscription = try await bus.subscribe("mbx.\(account).1") { message in
///     hub.wake(device)
///     bus.reply(to: message, [])
/// }
/// switch await bus.request("mbx.\(account).1", [], timeout: .seconds(1)) {
/// case .noResponders: push()
/// default: break
/// }
/// ```
public protocol MessageBus: Sendable {
    /// Sends `payload` to every current subscriber of `subject`, without waiting.
    func publish(_ subject: String, _ payload: [UInt8])

    /// Calls `handler` for each message on `subject` until the subscription is cancelled. When
    /// this returns, the bus has the subscription in force: anything published after it reaches
    /// the handler. Handlers run on the bus's threads and must not block.
    /// - Throws: `BusError` when the bus cannot take the subscription now.
    func subscribe(_ subject: String, _ handler: @escaping @Sendable (BusMessage) -> Void) async throws(BusError)
        -> BusSubscription

    /// Publishes `payload` with a reply subject and waits for the first answer.
    func request(_ subject: String, _ payload: [UInt8], timeout: Duration) async -> BusReply

    /// Answers a request; does nothing for a message that was not one.
    func reply(to message: BusMessage, _ payload: [UInt8])

    /// Sets what runs each time the bus comes back after an outage, when wake-ups may have been
    /// lost: users read what they missed.
    func onReconnect(_ handler: @escaping @Sendable () -> Void)
}

/// One message as a subscriber receives it.
public struct BusMessage: Sendable {
    /// The subject it was published on.
    public let subject: String
    /// Its bytes.
    public let payload: [UInt8]
    /// Where an answer goes, for a request.
    public let replySubject: String?

    /// Creates a message.
    public init(subject: String, payload: [UInt8], replySubject: String? = nil) {
        self.subject = subject
        self.payload = payload
        self.replySubject = replySubject
    }
}

/// What came of a request.
public enum BusReply: Sendable, Equatable {
    /// A subscriber answered with these bytes.
    case answered([UInt8])
    /// Nobody subscribes to the subject: for presence, "offline everywhere".
    case noResponders
    /// Somebody may subscribe, but no answer came in time.
    case timedOut
    /// The bus is down: nothing is known.
    case unavailable
}

/// A live subscription; cancelling it (or dropping every reference) stops its handler.
public final class BusSubscription: Sendable {
    private let cancellation: @Sendable () -> Void
    private let cancelled = Atomic<Bool>(false)

    /// Creates a subscription that runs `cancel` once, when cancelled or freed.
    public init(cancel: @escaping @Sendable () -> Void) { cancellation = cancel }

    /// Stops the handler; later calls do nothing.
    public func cancel() {
        if !cancelled.exchange(true, ordering: .acquiringAndReleasing) { cancellation() }
    }

    deinit { cancel() }
}

/// Why the bus refused a subscription.
public struct BusError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for people.
    public let description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
