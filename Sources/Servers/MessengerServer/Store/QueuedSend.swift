/// A send in a store's queue (`MessengerStore.queueSend`): its place in the order is taken, and
/// the store commits it with the sends queued around it whether or not anyone waits.
public struct QueuedSend: Sendable {
    private let pending: SendBatcher.Pending

    init(_ pending: SendBatcher.Pending) {
        self.pending = pending
    }

    /// Blocks the calling thread until the send is committed (or refused), as `MessengerStore.send`.
    /// - Throws: `MessengerStoreError`, as `send`.
    public func outcome() throws(MessengerStoreError) -> SendOutcome {
        try pending.outcome().get()
    }

    /// The destination's devices whose sockets here took the send at its commit (read once
    /// `outcome()` or `committed()` has returned): they need no wake-up.
    var deliveredHere: Set<Int> { pending.deliveredHere }

    /// Calls `body` with the outcome once the send is committed (or refused), holding no thread
    /// or task meanwhile: on the store's committer right after the commit (so `body` must be
    /// quick and must not block), or at once when the commit is already done. Call it once.
    public func whenCommitted(_ body: @escaping @Sendable (Result<SendOutcome, MessengerStoreError>) -> Void) {
        pending.whenCommitted(body)
    }

    /// Suspends until the send is committed (or refused), holding no thread meanwhile.
    public func committed() async -> Result<SendOutcome, MessengerStoreError> {
        await pending.committed()
    }
}
