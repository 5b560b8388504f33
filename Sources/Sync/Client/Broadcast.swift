import Synchronization

/// Fan-out of values to any number of `AsyncStream` subscribers.
final class Broadcast<Value: Sendable>: Sendable {
    private let subscribers = Mutex<(next: Int, all: [Int: AsyncStream<Value>.Continuation])>((0, [:]))

    /// A new stream that receives every value sent from now on.
    func subscribe() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let id = subscribers.withLock { state in
            state.next += 1
            state.all[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.all.removeValue(forKey: id) }
        }
        return stream
    }

    /// Whether anyone listens.
    var isObserved: Bool { subscribers.withLock { !$0.all.isEmpty } }

    /// Sends `values` to every subscriber.
    func send(_ values: [Value]) {
        guard !values.isEmpty else { return }
        let all = subscribers.withLock { Array($0.all.values) }
        for continuation in all { for value in values { continuation.yield(value) } }
    }
}

/// Observers of collections: each holds at most one pending "changed" signal, so a burst of
/// commits costs an observer one re-read, not one per commit (GRDB coalesces the same way).
final class CollectionSignals: Sendable {
    private let observers = Mutex<(next: Int, all: [Int: (String, AsyncStream<Void>.Continuation)])>((0, [:]))

    /// A stream that yields once now and then whenever `collection` changed since the last read.
    func subscribe(_ collection: String) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = observers.withLock { state in
            state.next += 1
            state.all[state.next] = (collection, continuation)
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.all.removeValue(forKey: id) }
        }
        continuation.yield()
        return stream
    }

    /// Signals the observers of the collections in `changes`.
    func send(_ changes: [RecordChange]) {
        guard !changes.isEmpty else { return }
        let touched = Set(changes.map(\.collection))
        let matching = observers.withLock { state in state.all.values.filter { touched.contains($0.0) }.map(\.1) }
        for continuation in matching { continuation.yield() }
    }
}
