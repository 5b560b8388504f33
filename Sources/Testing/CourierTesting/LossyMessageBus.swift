import CourierCore
import Synchronization

/// A bus that loses publishes while `dropsPublishes` is set, as NATS core may in an outage:
/// for tests of the fallback that catches up without the wake-up. Everything else is `inner`'s.
public final class LossyMessageBus: MessageBus {
    /// The bus that carries what is not dropped.
    public let inner: LocalMessageBus
    /// Whether `publish` drops its message (set by default).
    public let dropsPublishes = Atomic<Bool>(true)
    /// Publishes dropped so far.
    public let dropped = Atomic<Int>(0)

    /// Creates a lossy bus over `inner`.
    public init(_ inner: LocalMessageBus = LocalMessageBus()) { self.inner = inner }

    public func publish(_ subject: String, _ payload: [UInt8]) {
        if dropsPublishes.load(ordering: .acquiring) {
            dropped.add(1, ordering: .relaxed)
            return
        }
        inner.publish(subject, payload)
    }

    public func subscribe(_ subject: String, _ handler: @escaping @Sendable (BusMessage) -> Void) async throws(BusError)
        -> BusSubscription
    {
        try await inner.subscribe(subject, handler)
    }

    public func request(_ subject: String, _ payload: [UInt8], timeout: Duration) async -> BusReply {
        await inner.request(subject, payload, timeout: timeout)
    }

    public func reply(to message: BusMessage, _ payload: [UInt8]) { inner.reply(to: message, payload) }

    public func onReconnect(_ handler: @escaping @Sendable () -> Void) { inner.onReconnect(handler) }
}
