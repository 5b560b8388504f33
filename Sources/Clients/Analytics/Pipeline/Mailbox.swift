import Synchronization

/// How public calls reach the pipeline: a lock-protected list the caller appends to, and a
/// doorbell rung only when the list goes from empty to non-empty. The pipeline takes everything
/// in one go, so a burst of calls costs one hop onto the actor instead of one per call.
final class Mailbox: Sendable {
    private struct State {
        var items: [Command] = []
        var closed = false
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let bell: AsyncStream<Void>.Continuation
    /// Rings (at most one pending ring) when there is something to take.
    let rings: AsyncStream<Void>

    /// What `post` did.
    enum PostResult { case accepted, full, closed }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        (rings, bell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Appends a command unless the mailbox is full or closed; never blocks on the pipeline.
    func post(_ command: Command) -> PostResult {
        let (result, ring): (PostResult, Bool) = state.withLock { state in
            if state.closed { return (.closed, false) }
            if state.items.count >= capacity { return (.full, false) }
            state.items.append(command)
            return (.accepted, state.items.count == 1)
        }
        if ring { bell.yield() }
        return result
    }

    /// Everything posted so far, in order.
    func takeAll() -> [Command] {
        state.withLock { state in
            let items = state.items
            state.items.removeAll(keepingCapacity: true)
            return items
        }
    }

    /// Refuses further posts and ends `rings` once the pipeline has taken what is left.
    /// Whether the instance that posts here was released (`close()` was called).
    var isClosed: Bool { state.withLock { $0.closed } }

    func close() {
        state.withLock { $0.closed = true }
        bell.finish()
    }
}
