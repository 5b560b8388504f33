import CourierCore
import Realtime

/// The delivery socket kept open: Realtime's `ConnectionStateMachine` decides when to open,
/// how long to wait after a failure or a drop (full jitter, growing to the policy's cap, back to
/// the base once a connection was stable) and what to do once live. Each socket first catches
/// up over HTTP, in order, before its own frames are processed; once live (the machine's
/// `resume`), the queued receipts go out and the queued messages that are due are sent
/// (`retryPendingSends()`, also its `flushOutbox`). Each socket is read by a
/// `DeliveryListener`, so an envelope is acknowledged only after its commit.
///
/// It does not send the socket's `GET /v1/keepalive` request (which the server answers), so the
/// machine's pings count as answered while the socket is open; a socket that breaks ends its
/// listener, which the machine sees as a drop.
///
/// ```swift
/// let connection = await client.connect(transport: transport)
/// for await event in connection.events { … }      // socket and catch-up events, in order of arrival
/// await connection.stop()
/// ```
public actor DeliveryConnection {
    /// What the sockets and the catch-ups produced (duplicates left out); finishes on `stop()`.
    public nonisolated let events: AsyncStream<IncomingEvent>
    private let continuation: AsyncStream<IncomingEvent>.Continuation
    private let client: MessengerClient
    private let transport: any RealtimeTransport
    private let clock: any Clock
    private var machine: ConnectionStateMachine
    private var listener: DeliveryListener?
    private var timers: [ConnectionTimer: Task<Void, Never>] = [:]
    /// The tasks that yield into `events` (catch-ups, each socket's forwarding): `stop()` waits
    /// for them, so nothing they processed is left out of `events`.
    private var producers: [Int: Task<Void, Never>] = [:]
    private var nextProducer = 0
    /// How many sockets were opened so far.
    public private(set) var openedCount = 0

    init(client: MessengerClient, transport: any RealtimeTransport, policy: ConnectionPolicy, clock: any Clock) {
        self.client = client
        self.transport = transport
        self.clock = clock
        machine = ConnectionStateMachine(policy: policy)
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Where the connection is: idle, connecting, live or waiting before the next attempt.
    public var state: ConnectionState { machine.state }

    /// Closes the socket, cancels the timers and finishes `events` once what was being processed
    /// is in them. An envelope the socket delivers after this is left unprocessed and
    /// unacknowledged on the server, for the next catch-up: none is stored without an event.
    public func stop() async {
        perform(machine.handle(.stop))
        for timer in timers.values { timer.cancel() }
        timers = [:]
        while let (id, producer) = producers.first {
            await producer.value
            producers[id] = nil
        }
        continuation.finish()
    }

    /// The network path came up or went away (from the app's path monitor).
    public func networkChanged(available: Bool) { perform(machine.handle(.pathChanged(available: available))) }

    /// The app went to the background: the socket closes (a push wakes it, see `pushArrived()`).
    public func enteredBackground() { perform(machine.handle(.background)) }

    /// The app came to the foreground: the socket opens again after the current wait.
    public func enteredForeground() { perform(machine.handle(.foreground)) }

    /// A content-free push arrived while in the background: connect and catch up.
    public func pushArrived() { perform(machine.handle(.push)) }

    func start() { perform(machine.handle(.start)) }

    private func handle(_ event: ConnectionEvent) { perform(machine.handle(event)) }

    private func perform(_ actions: [ConnectionAction]) {
        for action in actions {
            switch action {
            case .open:
                Task { await self.open() }
            case .close:
                listener?.stop()
                listener = nil
            case .startTimer(let timer, let delay):
                timers[timer]?.cancel()
                timers[timer] = Task { [clock] in
                    do { try await clock.sleep(for: delay) } catch { return }
                    guard !Task.isCancelled else { return }
                    self.handle(.timerFired(timer))
                }
            case .cancelTimer(let timer):
                timers[timer]?.cancel()
                timers[timer] = nil
            case .sendPing:
                if listener != nil { handle(.pong) }
            case .resume:
                // The catch-up itself ran in `open()`, before the socket's frames.
                startProducing { [client] in
                    _ = try? await client.retryPendingSends()
                    _ = try? await client.sendPendingReceipts()
                }
            case .flushOutbox:
                Task { [client] in _ = try? await client.retryPendingSends() }
            }
        }
    }

    private func open() async {
        guard case .connecting = machine.state else { return }
        let socket: any RealtimeSocket
        do {
            socket = try await transport.connect()
        } catch {
            handle(.failed)
            return
        }
        guard case .connecting = machine.state else {
            socket.close()
            return
        }
        openedCount += 1
        // What waited while away is read over HTTP first and reported in the order it was sent;
        // only then are the socket's frames processed (mostly the same envelopes, duplicates by
        // now). Both at once could report a later message before an earlier one: each reports
        // what it stored first, and the socket's events take one more hop. Each event goes out as
        // its envelope commits, so a catch-up that fails halfway still reports what it stored.
        let caughtUp = startProducing { [client, continuation] in
            _ = try? await client.catchUp(limit: .max) { event in
                if event != .duplicate { continuation.yield(event) }
            }
        }
        await caughtUp.value
        guard case .connecting = machine.state else {
            socket.close()
            return
        }
        let listener = DeliveryListener(socket: socket, client: client)
        self.listener = listener
        startProducing { [continuation] in
            for await event in listener.events where event != .duplicate { continuation.yield(event) }
            await self.ended(listener)
        }
        handle(.opened)
    }

    /// Runs `work`, which yields into `events`, as a task `stop()` waits for.
    @discardableResult
    private func startProducing(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let id = nextProducer
        nextProducer += 1
        let task = Task {
            await work()
            self.producerFinished(id)
        }
        producers[id] = task
        return task
    }

    private func producerFinished(_ id: Int) { producers[id] = nil }

    /// A socket closed: a drop when it is the current one (not one this side closed).
    private func ended(_ ended: DeliveryListener) {
        guard let listener, listener === ended else { return }
        self.listener = nil
        handle(.dropped)
    }
}

extension MessengerClient {
    /// Keeps the delivery socket open through `transport`, reconnecting after failures and drops
    /// with full-jitter waits on the configuration's clock, catching up and sending due messages
    /// each time it is live.
    /// - Parameter policy: Realtime's connection policy (backoff, stable time, ping interval).
    public func connect(transport: any RealtimeTransport, policy: ConnectionPolicy = .init()) async
        -> DeliveryConnection
    {
        let connection = DeliveryConnection(client: self, transport: transport, policy: policy, clock: clock)
        await connection.start()
        return connection
    }
}
