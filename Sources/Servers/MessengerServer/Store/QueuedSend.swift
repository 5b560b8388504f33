/// A send in a store's queue (`MessengerStore.queueSend`): its place in the order is taken;
/// `outcome()` blocks until it is stored, leading the group commit when no one else is.
public struct QueuedSend: Sendable {
    private let wait: @Sendable () -> Result<SendOutcome, MessengerStoreError>

    init(_ wait: @escaping @Sendable () -> Result<SendOutcome, MessengerStoreError>) {
        self.wait = wait
    }

    /// Blocks the calling thread until the send is committed (or refused), as `MessengerStore.send`.
    /// - Throws: `MessengerStoreError`, as `send`.
    public func outcome() throws(MessengerStoreError) -> SendOutcome {
        try wait().get()
    }
}
