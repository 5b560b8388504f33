import Synchronization

/// The bus of one process: a publish calls the matching handlers on the caller's thread. It is
/// the default of every server, and tests run two instances of a server on one to check what
/// crosses between them.
public final class LocalMessageBus: MessageBus {
    private struct Subscriber {
        let pattern: String
        let handler: @Sendable (BusMessage) -> Void
    }

    /// Subscribers by exact subject (a dictionary lookup per publish) and those with wildcards
    /// (matched one by one: few, such as one `commits.>` per server).
    private struct State {
        var nextId = 0
        var exact: [String: [Int: @Sendable (BusMessage) -> Void]] = [:]
        var wildcards: [Int: Subscriber] = [:]
        var subjects: [Int: String] = [:]
        var reconnectHandlers: [@Sendable () -> Void] = []

        mutating func add(_ id: Int, _ pattern: String, _ handler: @escaping @Sendable (BusMessage) -> Void) {
            subjects[id] = pattern
            if pattern.contains("*") || pattern.contains(">") {
                wildcards[id] = Subscriber(pattern: pattern, handler: handler)
            } else {
                exact[pattern, default: [:]][id] = handler
            }
        }

        mutating func remove(_ id: Int) {
            guard let pattern = subjects.removeValue(forKey: id) else { return }
            wildcards[id] = nil
            exact[pattern]?[id] = nil
            if exact[pattern]?.isEmpty == true { exact[pattern] = nil }
        }

        func handlers(for subject: String) -> [@Sendable (BusMessage) -> Void] {
            var handlers = exact[subject].map { Array($0.values) } ?? []
            for subscriber in wildcards.values where BusSubject.matches(subject, pattern: subscriber.pattern) {
                handlers.append(subscriber.handler)
            }
            return handlers
        }
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
            state.add(state.nextId, subject, handler)
            return state.nextId
        }
        return BusSubscription { [weak self] in self?.state.withLock { $0.remove(id) } }
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
            self?.state.withLock { $0.remove(inboxId) }
            continuation.resume(returning: reply)
        }
        return await withCheckedContinuation { continuation in
            pending.withLock { $0.continuation = continuation }
            state.withLock { $0.add(inboxId, inbox) { settle(.answered($0.payload)) } }
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
        let handlers = state.withLock { $0.handlers(for: message.subject) }
        for handler in handlers { handler(message) }
        return handlers.count
    }
}
