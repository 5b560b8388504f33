import Synchronization

/// A process-wide cap on concurrent expensive work: beyond it, work is refused at once, never
/// queued, so what it holds stays under `limit` × one unit however many requests arrive. It
/// bounds the messenger's Argon2id verifications of legacy credentials (19 MiB each), its
/// provisioning sockets and webhook pushes, and the collector's parsing of batches whose write
/// key is in the body (unchecked until parsed).
public final class SlotGate: Sendable {
    /// Slots allowed at once.
    public let limit: Int
    private let running = Atomic<Int>(0)

    /// A gate of `limit` slots.
    public init(limit: Int) { self.limit = max(limit, 0) }

    /// Takes a slot, or returns `false` when all are taken.
    public func tryEnter() -> Bool {
        var current = running.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = running.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives a slot back.
    public func leave() { running.subtract(1, ordering: .releasing) }

    /// Runs `body` in a slot.
    /// - Returns: `nil` when no slot was free and `body` did not run.
    public func run<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T? {
        guard tryEnter() else { return nil }
        defer { leave() }
        return try body()
    }

    /// Slots in use now.
    public var inUse: Int { running.load(ordering: .relaxed) }
}
