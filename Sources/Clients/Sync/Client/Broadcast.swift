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
