import Synchronization

/// How public calls reach the pipeline: a lock-protected list the caller appends to, and a
/// doorbell rung only when the list goes from empty to non-empty. The pipeline takes everything
/// in one go, so a burst of calls costs one hop onto the actor instead of one per call.
///
/// The doorbell is made by the pipeline when it starts (`openDoorbell()`), not by the app's
/// thread, and the state holds it in a box: a stream continuation stored inline would make the
/// runtime lay out this type's state by demangling its name the first time an instance is made
/// in a process, about 200 µs that `Analytics.init` should not pay. Posts before the pipeline
/// starts wait in the list; it takes them when it opens the doorbell.
final class Mailbox: Sendable {
    private final class Doorbell: Sendable {
        let continuation: AsyncStream<Void>.Continuation
        init(_ continuation: AsyncStream<Void>.Continuation) { self.continuation = continuation }
    }

    private struct State {
        var items: [Command] = []
        var closed = false
        /// Closed because a newer instance with the same write key replaced this one.
        var replaced = false
        var bell: Doorbell?
    }

    private let state = Mutex(State())
    private let capacity: Int

    /// What `post` did.
    enum PostResult { case accepted, full, closed, replaced }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The pipeline's doorbell: rings (at most one pending ring) when there is something to take,
    /// and ends when the mailbox is closed. Made once, by the pipeline, when it starts; it rings
    /// at once if anything was posted before.
    func openDoorbell() -> AsyncStream<Void> {
        let (rings, bell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (waiting, closed) = state.withLock { state -> (Bool, Bool) in
            state.bell = Doorbell(bell)
            return (!state.items.isEmpty, state.closed)
        }
        if waiting { bell.yield() }
        if closed { bell.finish() }
        return rings
    }

    /// Appends a command unless the mailbox is full or closed; never blocks on the pipeline.
    func post(_ command: Command) -> PostResult {
        let (result, ring): (PostResult, Doorbell?) = state.withLock { state in
            if state.closed { return (state.replaced ? .replaced : .closed, nil) }
            if state.items.count >= capacity { return (.full, nil) }
            state.items.append(command)
            return (.accepted, state.items.count == 1 ? state.bell : nil)
        }
        ring?.continuation.yield()
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

    /// Whether the instance that posts here was released or replaced (`close` was called).
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Whether a newer instance with the same write key replaced the one that posts here.
    var wasReplaced: Bool { state.withLock { $0.replaced } }

    /// Refuses further posts and ends the doorbell once the pipeline has taken what is left.
    /// - Parameter replaced: whether a newer instance replaced this one (the app still holds it;
    ///   its later calls are dropped as `replaced`).
    func close(replaced: Bool = false) {
        let bell = state.withLock { state -> Doorbell? in
            if !state.closed { state.replaced = replaced }
            state.closed = true
            return state.bell
        }
        bell?.continuation.finish()
    }
}
