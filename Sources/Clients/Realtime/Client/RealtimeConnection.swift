import CourierCore
import CourierHTTPClient

/// A realtime connection: runs `ConnectionStateMachine`'s actions over a transport (open, close,
/// timers on an injected `Clock`, keepalive pings), resumes from the stored cursor and then
/// flushes the persisted outbox each time it goes live, and stores incoming items once each.
///
/// ```swift
/// let store = try RealtimeStore(path: directory + "/realtime.sqlite")
/// let connection = RealtimeConnection(transport: transport, protocol: RequestResponseProtocol(), store: store)
/// await connection.start()
/// _ = try await connection.send(to: "alice", payload: body)
/// for await event in connection.events { … }
/// ```
public actor RealtimeConnection {
    /// What happened, for the app: state changes, received items, outbox progress.
    public nonisolated let events: AsyncStream<RealtimeEvent>
    let eventSink: AsyncStream<RealtimeEvent>.Continuation
    let transport: any RealtimeTransport
    let framing: any RealtimeProtocol
    /// The persisted outbox, inbox and cursor.
    public nonisolated let store: RealtimeStore
    let clock: any Clock
    let outboxPolicy: OutboxPolicy
    var machine: ConnectionStateMachine
    var random: JitterSource

    var socket: (any RealtimeSocket)?
    /// Bumped whenever a socket is opened or dropped, so late callbacks of an old one are ignored.
    var epoch: UInt64 = 0
    var timers: [ConnectionTimer: (token: UInt64, task: Task<Void, Never>)] = [:]
    var timerTokens: UInt64 = 0
    var outboxTimer: Task<Void, Never>?
    var reader: Task<Void, Never>?
    var writer: Task<Void, Never>?
    /// The open socket's outgoing messages, written in order by `writer`.
    var outgoing: AsyncStream<WebSocketMessage>.Continuation?
    var nextRequestId: Int64 = 1
    var pending: [Int64: PendingRequest] = [:]
    /// Outbox items sent on this socket and not yet answered, with the uptime they went out.
    var inFlight: [String: UInt64] = [:]
    var resumeRunning = false
    /// Connection attempts made so far (for measurements).
    public private(set) var connectAttempts = 0

    enum PendingRequest {
        case ping
        case resume
        case send(clientId: String)
    }

    /// Creates a connection in `idle`; `start()` opens it.
    /// - Parameters:
    ///   - transport: opens sockets.
    ///   - protocol: the framing spoken on them.
    ///   - store: the persisted outbox, inbox and cursor.
    ///   - clock: timers and time stamps.
    ///   - policy: reconnect, stability and keepalive timings.
    ///   - outboxPolicy: ack timeout and retries.
    ///   - random: the jitter's randomness.
    public init(
        transport: any RealtimeTransport, protocol framing: any RealtimeProtocol, store: RealtimeStore,
        clock: any Clock = SystemClock(), policy: ConnectionPolicy = .init(), outboxPolicy: OutboxPolicy = .init(),
        random: JitterSource = .init()
    ) {
        self.transport = transport
        self.framing = framing
        self.store = store
        self.clock = clock
        self.outboxPolicy = outboxPolicy
        var random = random
        machine = ConnectionStateMachine(policy: policy, random: JitterSource(seed: random.next()))
        self.random = random
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(100_000))
    }

    /// The current state.
    public var state: ConnectionState { machine.state }

    /// Keepalive pings sent since the peer was last heard.
    public var unansweredPings: Int { machine.unansweredPings }

    /// Starts connecting (when in the foreground with a network path).
    public func start() { handle(.start) }

    /// Closes the connection and stops every timer; the outbox keeps its items.
    public func stop() { handle(.stop) }

    /// Reports a lifecycle event: `.background`, `.foreground`, `.push`, `.pathChanged`.
    public func report(_ event: ConnectionEvent) { handle(event) }

    /// Follows `monitor`: each change of the network path is reported to the state machine.
    /// - Returns: the task that follows it; cancel it to stop.
    @discardableResult
    public nonisolated func follow(_ monitor: any NetworkPathMonitor) -> Task<Void, Never> {
        Task { [weak self] in
            for await available in monitor.updates() {
                await self?.report(.pathChanged(available: available))
            }
        }
    }

    /// Stores an item in the outbox (committed before it returns) and sends it when live.
    /// - Parameters:
    ///   - destination: where it goes.
    ///   - payload: what the protocol adapter sends.
    ///   - clientId: its idempotency key; a new UUID by default.
    /// - Returns: the stored item.
    /// - Throws: `RealtimeError` `invalidArgument` or `storage`.
    @discardableResult
    public func send(to destination: String, payload: [UInt8], clientId: String? = nil) throws(RealtimeError)
        -> OutboxItem
    {
        let item =
            if let clientId {
                try store.enqueue(destination: destination, payload: payload, clientId: clientId)
            } else {
                try store.enqueue(destination: destination, payload: payload)
            }
        flushOutbox()
        return item
    }

    /// Sends a `failed` item again with the same client id.
    /// - Throws: `RealtimeError` `notFound` or `storage`.
    public func retry(_ clientId: String) throws(RealtimeError) {
        try store.retry(clientId)
        flushOutbox()
    }

    /// Feeds `event` to the machine and runs its actions.
    func handle(_ event: ConnectionEvent) {
        let before = machine.state
        let actions = machine.handle(event)
        if machine.state != before { eventSink.yield(.state(machine.state)) }
        for action in actions { run(action) }
    }

    private func run(_ action: ConnectionAction) {
        switch action {
        case .open: open()
        case .close: closeSocket()
        case .startTimer(let timer, let delay): startTimer(timer, after: delay)
        case .cancelTimer(let timer): timers.removeValue(forKey: timer)?.task.cancel()
        case .sendPing: request(.ping) { framing.ping(id: $0) }
        case .resume: resume()
        case .flushOutbox: flushOutbox()
        }
    }

    private func open() {
        connectAttempts += 1
        epoch &+= 1
        let attempt = epoch
        Task {
            do {
                let socket = try await transport.connect()
                opened(socket, attempt: attempt)
            } catch {
                if attempt == epoch { handle(.failed) }
            }
        }
    }

    private func opened(_ socket: any RealtimeSocket, attempt: UInt64) {
        guard attempt == epoch, case .connecting = machine.state else {
            socket.close()
            return
        }
        self.socket = socket
        let (stream, continuation) = AsyncStream.makeStream(of: WebSocketMessage.self)
        outgoing = continuation
        writer = Task { [weak self] in
            for await message in stream {
                do { try await socket.send(message) } catch {
                    await self?.socketEnded(attempt: attempt)
                    return
                }
            }
        }
        reader = Task { [weak self] in
            while let message = await socket.receive() {
                guard let self else { return }
                await self.inbound(message, attempt: attempt)
            }
            await self?.socketEnded(attempt: attempt)
        }
        handle(.opened)
    }

    private func socketEnded(attempt: UInt64) {
        guard attempt == epoch, socket != nil else { return }
        handle(.dropped)
    }

    private func closeSocket() {
        epoch &+= 1
        socket?.close()
        socket = nil
        reader?.cancel()
        reader = nil
        outgoing?.finish()
        outgoing = nil
        writer?.cancel()
        writer = nil
        pending.removeAll()
        inFlight.removeAll()
        resumeRunning = false
        outboxTimer?.cancel()
        outboxTimer = nil
    }

    private func startTimer(_ timer: ConnectionTimer, after delay: Duration) {
        timers[timer]?.task.cancel()
        let clock = clock
        timerTokens &+= 1
        let token = timerTokens
        let task = Task { [weak self] in
            do { try await clock.sleep(for: delay) } catch { return }
            await self?.timerFired(timer, token: token)
        }
        timers[timer] = (token, task)
    }

    private func timerFired(_ timer: ConnectionTimer, token: UInt64) {
        guard timers[timer]?.token == token else { return }
        timers[timer] = nil
        handle(.timerFired(timer))
    }

    /// Sends a request whose frame `make` builds from its id; nothing when no socket is open.
    func request(_ kind: PendingRequest, _ make: (Int64) -> WebSocketMessage) {
        guard let outgoing, machine.state == .live else { return }
        let id = nextRequestId
        nextRequestId += 1
        pending[id] = kind
        outgoing.yield(make(id))
    }

    /// Sends a message that is no request (an acknowledgement).
    func reply(_ message: WebSocketMessage) { outgoing?.yield(message) }
}
