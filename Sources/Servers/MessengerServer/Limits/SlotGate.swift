import Synchronization

/// A process-wide cap on concurrent expensive work: beyond it, work is refused at once, never
/// queued, so what it holds stays under `limit` × one unit however many requests arrive. It
/// bounds Argon2id verifications of legacy credentials (19 MiB each) and the provisioning
/// sockets that need no account.
final class SlotGate: Sendable {
    /// Slots allowed at once.
    let limit: Int
    private let running = Atomic<Int>(0)

    init(limit: Int) { self.limit = max(limit, 0) }

    /// Takes a slot, or returns `false` when all are taken.
    func tryEnter() -> Bool {
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
    func leave() { running.subtract(1, ordering: .releasing) }

    /// Runs `body` in a slot.
    /// - Returns: `nil` when no slot was free and `body` did not run.
    func run<T>(_ body: () -> T) -> T? {
        guard tryEnter() else { return nil }
        defer { leave() }
        return body()
    }

    /// Slots in use now.
    var inUse: Int { running.load(ordering: .relaxed) }
}
