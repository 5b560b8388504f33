import Synchronization

/// The bus of one process: a publish calls the matching handlers on the caller's thread. It is
/// the default of every server, and tests run two instances of a server on one to check what
/// crosses between them.
public final class LocalMessageBus: MessageBus {
    private struct Subscriber {
        let pattern: String
        let handler: @Sendable (BusMessage) -> Void
    }

    private struct State {
        var nextId = 0
        var subscribers: [Int: Subscriber] = [:]
        var reconnectHandlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    /// Publishes so far, for tests that count what crossed the bus.
    public let published = Atomic<Int>(0)

    /// Creates a bus with no subscribers.
    public init() {}

    public func publish(_ subject: String, _ payload: [UInt8]) {
        deliver(BusMessage(subject: subject, payload: payload))
    }

    public func subscribe(_ subject: String, _ handler: @escaping @Sendable (BusMessage) -> Void) async throws(BusError)
        -> BusSubscription
    {
        let id = state.withLock { state in
            state.nextId += 1
            state.subscribers[state.nextId] = Subscriber(pattern: subject, handler: handler)
            return state.nextId
        }
        return BusSubscription { [weak self] in _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) } }
    }

    public func request(_ subject: String, _ payload: [UInt8], timeout: Duration) async -> BusReply {
        let inboxId = state.withLock { state in
            state.nextId += 1
            return state.nextId
        }
        let inbox = "_INBOX.local.\(inboxId)"
        let pending = Mutex<(continuation: CheckedContinuation<BusReply, Never>?, timer: Task<Void, Never>?)>(
            (nil, nil))
        let settle: @Sendable (BusReply) -> Void = { [weak self] reply in
            let (continuation, timer) = pending.withLock { pending in
                defer { pending = (nil, nil) }
                return (pending.continuation, pending.timer)
            }
            guard let continuation else { return }
            timer?.cancel()
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: inboxId) }
            continuation.resume(returning: reply)
        }
        return await withCheckedContinuation { continuation in
            pending.withLock { $0.continuation = continuation }
            state.withLock { $0.subscribers[inboxId] = Subscriber(pattern: inbox) { settle(.answered($0.payload)) } }
            if deliver(BusMessage(subject: subject, payload: payload, replySubject: inbox)) == 0 {
                settle(.noResponders)
                return
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                settle(.timedOut)
            }
            let settled = pending.withLock { pending -> Bool in
                guard pending.continuation != nil else { return true }
                pending.timer = timer
                return false
            }
            if settled { timer.cancel() }
        }
    }

    public func reply(to message: BusMessage, _ payload: [UInt8]) {
        guard let subject = message.replySubject else { return }
        publish(subject, payload)
    }

    public func onReconnect(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.reconnectHandlers.append(handler) }
    }

    /// Runs every reconnect handler, as a real bus does after an outage: for tests of what users
    /// read then.
    public func simulateReconnect() {
        for handler in state.withLock({ $0.reconnectHandlers }) { handler() }
    }

    /// Calls each matching handler; returns how many there were.
    @discardableResult
    private func deliver(_ message: BusMessage) -> Int {
        published.add(1, ordering: .relaxed)
        let handlers = state.withLock { state in
            state.subscribers.values.filter { BusSubject.matches(message.subject, pattern: $0.pattern) }.map(\.handler)
        }
        for handler in handlers { handler(message) }
        return handlers.count
    }
}
