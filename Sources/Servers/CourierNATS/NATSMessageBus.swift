internal import CNATS
import CourierCore
import Dispatch
import Synchronization

/// The message bus across instances: one connection to a NATS core server (the C client,
/// `libnats`), shared by every subscription of this process.
///
/// - The connection retries forever with jittered waits, from the start too: a server starts
///   while NATS is down and joins it when it comes up; `onReconnect` handlers run then.
/// - Handlers run on the C client's delivery threads (a small shared pool, not a thread per
///   subscription) and must hand work on without blocking.
/// - Requests share one wildcard inbox subscription; "no responders" comes back from the NATS
///   server at once, so presence costs one round trip.
///
/// ```swift
/// let bus = try NATSMessageBus(url: "nats://127.0.0.1:4222", name: "courier-server-a")
/// let messenger = MessengerServer(store: store, bus: bus)
/// ```
public final class NATSMessageBus: MessageBus {
    /// The connection. The C client's connection calls are thread-safe.
    nonisolated(unsafe) private let connection: OpaquePointer
    private let handle: ConnectionHandle
    private let events: ConnectionEvents
    private let inbox: String
    /// Requests awaiting an answer, each with its deadline (uptime nanoseconds), and whether a
    /// sweeper task is ending those that passed it: one task for all, not a timer per request.
    private let pending = Mutex<PendingRequests>(PendingRequests())
    private let inboxSubscription = Mutex<BusSubscription?>(nil)
    /// Where flushes block (a round trip to the NATS server), off Swift's cooperative pool.
    private let flushQueues = BlockingQueues(label: "courier.nats.flush", count: 2)
    private let publishFailures = Atomic<Int>(0)

    /// Connects to `url` (`nats://host:port`, or several separated by commas).
    /// - Parameters:
    ///   - name: how this instance shows in the NATS server's monitoring.
    ///   - reconnectWait: the wait between attempts, before jitter.
    ///   - jitter: up to this much is added to each wait, so instances do not reconnect in step.
    /// - Throws: `BusError` for an address the client refuses; an unreachable server is not an
    ///   error (the connection keeps trying).
    public init(
        url: String, name: String = "courier", reconnectWait: Duration = .milliseconds(250),
        jitter: Duration = .milliseconds(250)
    ) throws(BusError) {
        events = ConnectionEvents()
        var options: OpaquePointer?
        try Self.check(natsOptions_Create(&options), "creating options")
        defer { natsOptions_Destroy(options) }
        let context = Unmanaged.passRetained(events).toOpaque()
        try Self.check(natsOptions_SetURL(options, url), "the address \(url)")
        try Self.check(natsOptions_SetName(options, name), "the name")
        try Self.check(natsOptions_SetMaxReconnect(options, -1), "reconnects")
        try Self.check(natsOptions_SetReconnectWait(options, reconnectWait.wholeMilliseconds), "the reconnect wait")
        try Self.check(
            natsOptions_SetReconnectJitter(options, jitter.wholeMilliseconds, jitter.wholeMilliseconds), "the jitter")
        // A dead server is noticed within about two pings.
        try Self.check(natsOptions_SetPingInterval(options, 2_000), "the ping interval")
        try Self.check(natsOptions_SetMaxPingsOut(options, 2), "the pings out")
        try Self.check(natsOptions_UseGlobalMessageDelivery(options, true), "the delivery pool")
        // Each publish goes out at once instead of waiting for the client's flusher thread's
        // next turn (about a millisecond): wake-ups and presence are latency, not throughput.
        try Self.check(natsOptions_SetSendAsap(options, true), "sending at once")
        try Self.check(
            natsOptions_SetRetryOnFailedConnect(options, true, natsConnectionCameUp, context), "connect retries")
        try Self.check(natsOptions_SetReconnectedCB(options, natsConnectionCameUp, context), "reconnects")
        try Self.check(natsOptions_SetDisconnectedCB(options, natsConnectionWentDown, context), "disconnects")
        var handle: OpaquePointer?
        let status = natsConnection_Connect(&handle, options)
        guard status == NATS_OK || status == NATS_NOT_YET_CONNECTED, let handle else {
            throw BusError("NATS at \(url): \(String(cString: natsStatus_GetText(status)))")
        }
        connection = handle
        self.handle = ConnectionHandle(pointer: handle)
        // `events` stays retained for the process's life (a few bytes per bus): the C client's
        // callback thread may still report a connection event after `natsConnection_Destroy`.
        var random = SystemRandomNumberGenerator()
        inbox = "_INBOX.courier.\(String(random.next(), radix: 36))"
        let answers = try subscribeNow(inbox + ".*") { [weak self] message, noResponders in
            self?.answered(message, noResponders: noResponders)
        }
        inboxSubscription.withLock { $0 = answers }
    }

    deinit {
        inboxSubscription.withLock { $0 }?.cancel()
        natsConnection_Close(connection)
        natsConnection_Destroy(connection)
    }

    /// Whether the connection is up now.
    public var isConnected: Bool { natsConnection_Status(connection) == NATS_CONN_STATUS_CONNECTED }

    /// Publishes the C client refused (its reconnect buffer was full while the server was away).
    public var failedPublishes: Int { publishFailures.load(ordering: .relaxed) }

    /// The connection's state in Prometheus text format, for `/metrics`.
    public func metricsText() -> String {
        """
        # HELP courier_nats_connected Whether this instance's connection to NATS is up.
        # TYPE courier_nats_connected gauge
        courier_nats_connected \(isConnected ? 1 : 0)
        # HELP courier_nats_failed_publishes_total Publishes the NATS client refused (its reconnect buffer was full).
        # TYPE courier_nats_failed_publishes_total counter
        courier_nats_failed_publishes_total \(failedPublishes)

        """
    }

    public func publish(_ subject: String, _ payload: [UInt8]) {
        let status = payload.withUnsafeBytes {
            natsConnection_Publish(connection, subject, $0.baseAddress, Int32($0.count))
        }
        if status != NATS_OK { publishFailures.add(1, ordering: .relaxed) }
    }

    public func subscribe(_ subject: String, _ handler: @escaping @Sendable (BusMessage) -> Void) async throws(BusError)
        -> BusSubscription
    {
        let subscription = try subscribeNow(subject) { message, _ in handler(message) }
        // The subscription is in force once the server has answered a ping sent after it; while
        // the server is away it is sent again on reconnect, and `onReconnect` handlers run then.
        let handle = self.handle
        _ = await flushQueues.run { natsConnection_FlushTimeout(handle.pointer, 2_000) == NATS_OK }
        return subscription
    }

    public func request(_ subject: String, _ payload: [UInt8], timeout: Duration) async -> BusReply {
        guard isConnected else { return .unavailable }
        let id = pending.withLock { state in
            state.next += 1
            return state.next
        }
        let connection = self.connection
        let reply = "\(inbox).\(id)"
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(timeout.wholeMilliseconds, 1)) * 1_000_000
        return await withCheckedContinuation { continuation in
            let startSweeper = pending.withLock { state in
                state.waiting[id] = (continuation, deadline)
                defer { state.sweeping = true }
                return !state.sweeping
            }
            if startSweeper { Task { [weak self] in await self?.sweep() } }
            let status = payload.withUnsafeBytes {
                natsConnection_PublishRequest(connection, subject, reply, $0.baseAddress, Int32($0.count))
            }
            guard status == NATS_OK else {
                settle(id, .unavailable)
                return
            }
        }
    }

    public func reply(to message: BusMessage, _ payload: [UInt8]) {
        guard let subject = message.replySubject else { return }
        publish(subject, payload)
    }

    public func onReconnect(_ handler: @escaping @Sendable () -> Void) {
        events.add(handler)
    }

    /// An answer on the inbox: the last token is the request's id.
    private func answered(_ message: BusMessage, noResponders: Bool) {
        guard let token = message.subject.split(separator: ".").last, let id = UInt64(token) else { return }
        settle(id, noResponders ? .noResponders : .answered(message.payload))
    }

    /// Resumes request `id` with `reply` unless it already ended.
    private func settle(_ id: UInt64, _ reply: BusReply) {
        pending.withLock { $0.waiting.removeValue(forKey: id) }?.continuation.resume(returning: reply)
    }

    /// Ends requests whose deadline passed, every 20 ms while any waits.
    private func sweep() async {
        while true {
            try? await Task.sleep(for: .milliseconds(20))
            let now = DispatchTime.now().uptimeNanoseconds
            let (expired, more) = pending.withLock { state in
                let expired = state.waiting.filter { $0.value.deadline <= now }
                for id in expired.keys { state.waiting[id] = nil }
                if state.waiting.isEmpty { state.sweeping = false }
                return (expired.values.map(\.continuation), state.sweeping)
            }
            for continuation in expired { continuation.resume(returning: .timedOut) }
            if !more { return }
        }
    }

    /// Subscribes without waiting for the server.
    private func subscribeNow(_ subject: String, _ handler: @escaping @Sendable (BusMessage, Bool) -> Void)
        throws(BusError) -> BusSubscription
    {
        let box = Unmanaged.passRetained(SubscriptionHandler(handler)).toOpaque()
        var handle: OpaquePointer?
        let status = natsConnection_Subscribe(&handle, connection, subject, natsMessageArrived, box)
        guard status == NATS_OK, let handle else {
            Unmanaged<SubscriptionHandler>.fromOpaque(box).release()
            throw BusError("subscribing to \(subject): \(String(cString: natsStatus_GetText(status)))")
        }
        // The handler box is released once the C client has delivered its last message.
        if natsSubscription_SetOnCompleteCB(handle, natsSubscriptionCompleted, box) != NATS_OK {
            Unmanaged<SubscriptionHandler>.fromOpaque(box).release()
        }
        nonisolated(unsafe) let subscription = handle
        return BusSubscription {
            natsSubscription_Unsubscribe(subscription)
            natsSubscription_Destroy(subscription)
        }
    }

    private static func check(_ status: natsStatus, _ what: String) throws(BusError) {
        guard status == NATS_OK else { throw BusError("NATS \(what): \(String(cString: natsStatus_GetText(status)))") }
    }
}

/// Requests awaiting their answer.
private struct PendingRequests {
    var next: UInt64 = 0
    var waiting: [UInt64: (continuation: CheckedContinuation<BusReply, Never>, deadline: UInt64)] = [:]
    var sweeping = false
}

/// The connection pointer, to carry into a flush on another thread.
private struct ConnectionHandle: @unchecked Sendable {
    // The C client's connection calls are thread-safe; the bus keeps the connection alive.
    let pointer: OpaquePointer
}

/// What runs when the connection comes back.
private final class ConnectionEvents: Sendable {
    private let handlers = Mutex<[@Sendable () -> Void]>([])
    let isUp = Atomic<Bool>(false)

    func add(_ handler: @escaping @Sendable () -> Void) { handlers.withLock { $0.append(handler) } }

    func cameUp() {
        isUp.store(true, ordering: .relaxed)
        for handler in handlers.withLock({ $0 }) { handler() }
    }
}

/// A subscription's handler, as the C client's callbacks find it.
private final class SubscriptionHandler: Sendable {
    let handler: @Sendable (BusMessage, Bool) -> Void
    init(_ handler: @escaping @Sendable (BusMessage, Bool) -> Void) { self.handler = handler }
}

/// The C client's message callback, on its delivery threads.
private func natsMessageArrived(
    _ connection: OpaquePointer?, _ subscription: OpaquePointer?, _ message: OpaquePointer?,
    _ closure: UnsafeMutableRawPointer?
) {
    guard let message, let closure else { return }
    defer { natsMsg_Destroy(message) }
    let handler = Unmanaged<SubscriptionHandler>.fromOpaque(closure).takeUnretainedValue()
    let length = Int(natsMsg_GetDataLength(message))
    var payload: [UInt8] = []
    if length > 0, let data = natsMsg_GetData(message) {
        payload = Array(UnsafeRawBufferPointer(start: data, count: length))
    }
    let reply = natsMsg_GetReply(message).map { String(cString: $0) }
    handler.handler(
        BusMessage(subject: String(cString: natsMsg_GetSubject(message)), payload: payload, replySubject: reply),
        natsMsg_IsNoResponders(message))
}

private func natsSubscriptionCompleted(_ closure: UnsafeMutableRawPointer?) {
    guard let closure else { return }
    Unmanaged<SubscriptionHandler>.fromOpaque(closure).release()
}

private func natsConnectionCameUp(_ connection: OpaquePointer?, _ closure: UnsafeMutableRawPointer?) {
    guard let closure else { return }
    Unmanaged<ConnectionEvents>.fromOpaque(closure).takeUnretainedValue().cameUp()
}

private func natsConnectionWentDown(_ connection: OpaquePointer?, _ closure: UnsafeMutableRawPointer?) {
    guard let closure else { return }
    Unmanaged<ConnectionEvents>.fromOpaque(closure).takeUnretainedValue().isUp.store(false, ordering: .relaxed)
}
