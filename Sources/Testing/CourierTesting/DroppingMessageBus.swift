import CourierCore
import Synchronization

/// A bus that loses every publish and request, as NATS core may (it delivers at most once),
/// while its subscriptions and reconnect handlers work: for tests of the fallbacks that make a
/// lost wake-up good (a read after subscribing, a catch-up poll, a read after a reconnect).
///
/// ```swift
/// let bus = DroppingMessageBus()
/// let server = MessengerServer(store: store, bus: bus)
/// // … a send's wake-up is lost; then:
/// bus.inner.simulateReconnect()
/// ```
public final class DroppingMessageBus: MessageBus {
    /// The bus underneath, which keeps the subscriptions and runs the reconnect handlers.
    public let inner = LocalMessageBus()
    /// Publishes and requests lost so far.
    public let dropped = Atomic<Int>(0)

    /// Creates a bus that loses everything sent on it.
    public init() {}

    public func publish(_ subject: String, _ payload: [UInt8]) { dropped.add(1, ordering: .relaxed) }

    public func subscribe(_ subject: String, _ handler: @escaping @Sendable (BusMessage) -> Void)
        async throws(BusError) -> BusSubscription
    {
        try await inner.subscribe(subject, handler)
    }

    /// Loses the request: to the sender, nobody answered in time.
    public func request(_ subject: String, _ payload: [UInt8], timeout: Duration) async -> BusReply {
        dropped.add(1, ordering: .relaxed)
        return .timedOut
    }

    public func reply(to message: BusMessage, _ payload: [UInt8]) { inner.reply(to: message, payload) }

    public func onReconnect(_ handler: @escaping @Sendable () -> Void) { inner.onReconnect(handler) }
}
