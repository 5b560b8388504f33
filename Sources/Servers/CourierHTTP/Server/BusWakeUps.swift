import CourierCore
import Synchronization

/// One kind of wake-up that instances of a server send each other over a `MessageBus`: "this
/// environment's flags changed", "this owner pushed", "this project committed". Each is
/// published on `<prefix>.<token(key)>` with the key itself in the payload (a token may be a
/// hash), and each instance hears the others' through one `<prefix>.>` subscription; its own
/// publishes are skipped, since it already acted on them.
///
/// ```swift
/// let changes = BusWakeUps(bus: bus, prefix: "flags.changed") { environment in forget(environment) }
/// try await changes.start()  // or run `changes.job(name:clock:)` beside the server
/// changes.publish("production")
/// ```
public final class BusWakeUps: Sendable {
    private let bus: any MessageBus
    private let prefix: String
    private let handler: @Sendable (String) -> Void
    /// Tells this instance's publishes from the others'.
    private let origin: String
    private let subscription = Mutex<BusSubscription?>(nil)

    /// Creates the wake-ups; nothing is heard before `start()`.
    /// - Parameters:
    ///   - bus: the bus the instances share.
    ///   - prefix: the subjects' first tokens, such as `flags.changed`.
    ///   - handler: called with the key of each wake-up another instance publishes; it runs on
    ///     the bus's thread and must not block.
    public init(bus: any MessageBus, prefix: String, handler: @escaping @Sendable (String) -> Void) {
        self.bus = bus
        self.prefix = prefix
        self.handler = handler
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        origin = String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether the subscription is in force.
    public var isStarted: Bool { subscription.withLock { $0 != nil } }

    /// Subscribes to the other instances' wake-ups, unless that is done; when it returns, every
    /// later publish of theirs reaches the handler.
    /// - Throws: `BusError` when the bus cannot take the subscription now.
    public func start() async throws(BusError) {
        guard !isStarted else { return }
        let origin = origin
        let handler = handler
        let taken = try await bus.subscribe("\(prefix).>") { message in
            guard let (from, key) = Self.decode(message.payload), from != origin else { return }
            handler(key)
        }
        let extra = subscription.withLock { current -> BusSubscription? in
            guard current == nil else { return taken }
            current = taken
            return nil
        }
        extra?.cancel()
    }

    /// Tells the other instances about `key`; call it after the change is committed.
    public func publish(_ key: String) {
        bus.publish("\(prefix).\(BusSubject.token(key))", Array(origin.utf8) + [UInt8(ascii: "\n")] + Array(key.utf8))
    }

    /// A job that calls `start()`, again every `retryInterval` of `clock` while the bus refuses,
    /// and ends once the subscription is in force.
    /// - Parameters:
    ///   - name: the job's name.
    ///   - clock: whose time the retries wait on.
    ///   - retryInterval: the wait after a refusal.
    public func job(name: String, clock: any Clock, retryInterval: Duration = .seconds(1)) -> BackgroundJob {
        BackgroundJob(name: name) { [self] in
            while !Task.isCancelled {
                do {
                    try await start()
                    return
                } catch {
                    do {
                        try await clock.sleep(for: retryInterval)
                    } catch {
                        return
                    }
                }
            }
        }
    }

    private static func decode(_ payload: [UInt8]) -> (origin: String, key: String)? {
        guard let newline = payload.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return (
            String(decoding: payload[..<newline], as: UTF8.self),
            String(decoding: payload[(newline + 1)...], as: UTF8.self)
        )
    }
}
