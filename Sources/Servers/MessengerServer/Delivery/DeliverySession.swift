import CourierCore
import CourierHTTP
import Synchronization

/// One device's live socket: sends its mailbox in order (stored envelopes first, then a "queue
/// empty" marker, then new ones as they arrive), at most `window` unacknowledged at once, and
/// deletes each envelope when the device acknowledges it. An envelope without an ack stays in the
/// mailbox and is sent again on the next connection.
final class DeliverySession: Sendable {
    private struct State {
        /// The highest mailbox id sent on this socket.
        var lastSentId: Int64 = 0
        /// Request id → mailbox id, for envelopes awaiting their ack.
        var inFlight: [Int64: Int64] = [:]
        var nextRequestId: Int64 = 1
        var passRunning = false
        var passAgain = false
        var sentQueueEmpty = false
        /// The last pass read to the mailbox's end, and nothing has been refused since: an
        /// envelope committed now is the next one this socket should get (`handOver`).
        var caughtUp = false
        var ended = false
        var closed = false
        var watchdogArmed = false
        /// The bus subscriptions that reach this socket, cancelled when it ends.
        var subscriptions: [BusSubscription] = []

        /// The next request id on this socket.
        mutating func claimRequestId() -> Int64 {
            defer { nextRequestId += 1 }
            return nextRequestId
        }
    }

    /// What happens to envelopes a live device does not acknowledge in time: after `delay` on
    /// `clock`, `handler` runs (the server pushes, as if the device were offline).
    struct UnackedWatch: Sendable {
        let clock: any Clock
        let delay: Duration
        let handler: @Sendable (AuthenticatedDevice) -> Void
    }

    let device: AuthenticatedDevice
    let socket: WebSocket
    /// Which socket this is, among every instance's sockets for the device.
    let connection: ConnectionStamp
    private let store: any MessengerStore
    /// Where mailbox reads block (a disk read, a database round trip), off the cooperative pool.
    private let storeQueues: BlockingQueues
    private let acks: AckBatcher
    private let window: Int
    private let unacked: UnackedWatch?
    private let state = Mutex(State())
    private let passes = Atomic<Int>(0)

    init(
        device: AuthenticatedDevice, socket: WebSocket, connection: ConnectionStamp, store: any MessengerStore,
        storeQueues: BlockingQueues, acks: AckBatcher, window: Int, unacked: UnackedWatch? = nil
    ) {
        self.device = device
        self.socket = socket
        self.connection = connection
        self.store = store
        self.storeQueues = storeQueues
        self.acks = acks
        self.window = max(window, 1)
        self.unacked = unacked
    }

    /// Starts a watch over the envelopes in flight now, unless one is running: when the delay
    /// has passed and any of them is still unacknowledged on a socket still open, the handler
    /// runs (once the socket has ended, `MessengerServer.announceUnread` has looked instead).
    private func watchUnacked() {
        guard let unacked else { return }
        let newest = state.withLock { state -> Int64? in
            guard !state.watchdogArmed, !state.ended, let newest = state.inFlight.keys.max() else { return nil }
            state.watchdogArmed = true
            return newest
        }
        guard let newest else { return }
        Task {
            try? await unacked.clock.sleep(for: unacked.delay)
            let (late, again) = state.withLock { state -> (Bool, Bool) in
                state.watchdogArmed = false
                return (
                    !state.ended && state.inFlight.keys.contains { $0 <= newest },
                    !state.inFlight.isEmpty && !state.ended
                )
            }
            if late { unacked.handler(device) }
            if again { watchUnacked() }
        }
    }

    /// Something may be new in the mailbox: runs a delivery pass unless one is running, in which
    /// case that pass looks again when it finishes.
    func wake() {
        let start = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            if state.passRunning {
                state.passAgain = true
                return false
            }
            state.passRunning = true
            return true
        }
        if start { startPass() }
    }

    /// An envelope just committed for this device, offered by the send committer in mailbox
    /// order (`SendBatcher.onCommitted`): queued on the socket at once when everything before it
    /// has been sent here (no pass running, the last one read to the mailbox's end) and the
    /// window and the socket's queue have room. Otherwise a pass reads it from the mailbox, and
    /// no envelope goes out before an earlier one.
    /// - Returns: whether it was queued here now.
    @discardableResult
    func handOver(_ entry: MailboxEntry) -> Bool {
        let (sent, start) = state.withLock { state -> (Bool, Bool) in
            // Ended, or already sent here by a pass that read it first: nothing to do.
            if state.ended || entry.id <= state.lastSentId { return (false, false) }
            if state.caughtUp, !state.passRunning, state.inFlight.count < window,
                socket.outbound.sendIfRoom(
                    .text(DeliveryFrame.message(id: state.nextRequestId, envelope: entry.envelope)))
            {
                let id = state.claimRequestId()
                state.inFlight[id] = entry.id
                state.lastSentId = entry.id
                return (true, false)
            }
            // Refused: until a pass has read past this envelope, later ones must wait for it too.
            state.caughtUp = false
            if state.passRunning {
                state.passAgain = true
                return (false, false)
            }
            state.passRunning = true
            return (false, true)
        }
        if sent { watchUnacked() }
        if start { startPass() }
        return sent
    }

    /// Runs a delivery pass (the caller has set `passRunning`).
    private func startPass() {
        passes.add(1, ordering: .relaxed)
        Task { await self.deliver() }
    }

    /// Delivery passes started so far (tests).
    var passesStarted: Int { passes.load(ordering: .relaxed) }

    /// Whether the last pass read to the mailbox's end and none is running (tests wait for it).
    var isCaughtUp: Bool { state.withLock { $0.caughtUp && !$0.passRunning } }

    /// Sends a control request (not an envelope) on the socket.
    func sendControl(_ frame: (Int64) -> String) {
        let id = state.withLock { $0.claimRequestId() }
        try? socket.outbound.sendNow(.text(frame(id)))
    }

    /// Handles one message from the device.
    /// Handles one frame from the device, already parsed: a response acknowledges an envelope.
    func receive(_ frame: JSONValue) {
        guard let response = DeliveryFrame.response(frame) else { return }
        let (mailboxId, reopened) = state.withLock { state -> (Int64?, Bool) in
            let wasFull = state.inFlight.count >= window
            let mailboxId = state.inFlight.removeValue(forKey: response.id)
            return (mailboxId, wasFull && state.inFlight.count < window)
        }
        if let mailboxId, response.status >= 200, response.status < 300 { acks.acknowledge(mailboxId, for: device) }
        if reopened { wake() }
    }

    /// Keeps `subscriptions` until the socket ends (cancels them at once if it has).
    func hold(_ subscriptions: [BusSubscription]) {
        let ended = state.withLock { state -> Bool in
            if !state.ended { state.subscriptions += subscriptions }
            return state.ended
        }
        if ended { subscriptions.forEach { $0.cancel() } }
    }

    /// The socket has closed: no more passes, no more wake-ups from the bus.
    func end() {
        let subscriptions = state.withLock { state -> [BusSubscription] in
            state.ended = true
            defer { state.subscriptions = [] }
            return state.subscriptions
        }
        subscriptions.forEach { $0.cancel() }
    }

    /// Whether the socket has not ended yet.
    var isOpen: Bool { state.withLock { !$0.ended } }

    /// Ends the session and closes its socket with `code`, once (several instances or paths may
    /// ask: a newer socket, a removal announced on the bus and seen here too).
    func close(_ code: WebSocketCloseCode, reason: String) {
        end()
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        if first { socket.outbound.close(code, reason: reason) }
    }

    private func deliver() async {
        while true {
            let (after, room) = state.withLock { ($0.lastSentId, window - $0.inFlight.count) }
            var entries: [MailboxEntry] = []
            var readToEnd = false
            if room > 0 {
                do {
                    let (store, device) = (store, device)
                    entries = try await storeQueues.run {
                        try store.mailbox(
                            accountId: device.accountId, deviceId: device.deviceId, afterId: after,
                            limit: min(room, 100))
                    }
                    readToEnd = entries.count < min(room, 100)
                } catch {
                    socket.outbound.close(.tryAgainLater, reason: "storage unavailable")
                    end()
                }
            }
            // In flight, and watched, before the first frame goes: an ack can come back at once.
            let ids = state.withLock { state in
                entries.map { entry -> Int64 in
                    let id = state.claimRequestId()
                    state.inFlight[id] = entry.id
                    state.lastSentId = entry.id
                    return id
                }
            }
            if !entries.isEmpty { watchUnacked() }
            for (id, entry) in zip(ids, entries) {
                do {
                    try await socket.outbound.send(.text(DeliveryFrame.message(id: id, envelope: entry.envelope)))
                } catch {
                    end()
                    break
                }
            }
            if entries.isEmpty && room > 0 {
                let first = state.withLock { state -> Int64? in
                    guard !state.sentQueueEmpty else { return nil }
                    state.sentQueueEmpty = true
                    return state.claimRequestId()
                }
                if let first { try? await socket.outbound.send(.text(DeliveryFrame.queueEmpty(id: first))) }
            }
            let next = state.withLock { state -> Bool in
                if state.ended {
                    state.passRunning = false
                    return false
                }
                if !entries.isEmpty && state.inFlight.count < window { return true }
                if state.passAgain {
                    state.passAgain = false
                    return true
                }
                state.caughtUp = readToEnd
                state.passRunning = false
                return false
            }
            if !next { return }
        }
    }
}
