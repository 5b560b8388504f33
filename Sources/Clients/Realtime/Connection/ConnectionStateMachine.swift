/// The lifecycle of a realtime connection as a pure value: feed it events, get back the actions
/// to perform. No sockets, no clocks, no tasks: `RealtimeConnection` runs the actions, and tests
/// drive every transition by hand.
///
/// ```swift
/// var machine = ConnectionStateMachine()
/// machine.handle(.start)    // [.open]
/// machine.handle(.opened)   // [.startTimer(.ping, 25 s), .startTimer(.stable, 30 s), .resume, .flushOutbox]
/// machine.handle(.dropped)  // [.close, .cancelTimer(.ping), .cancelTimer(.stable), .startTimer(.reconnect, d₀)]
/// ```
public struct ConnectionStateMachine: Sendable {
    /// The current state.
    public private(set) var state: ConnectionState = .idle
    /// The timings.
    public let policy: ConnectionPolicy
    /// The backoff exponent n for the next waiting delay.
    public private(set) var attempt = 0
    /// Pings sent since the last answer.
    public private(set) var unansweredPings = 0
    /// Whether the app is in the foreground.
    public private(set) var foreground = true
    /// Whether the network path is up.
    public private(set) var networkAvailable = true
    /// Whether the app wants the connection.
    public private(set) var wanted = false
    private var random: JitterSource

    /// A machine in `idle`.
    /// - Parameters:
    ///   - policy: the timings.
    ///   - random: the jitter's randomness; seed it in tests to reproduce delays.
    public init(policy: ConnectionPolicy = .init(), random: JitterSource = .init()) {
        self.policy = policy
        self.random = random
    }

    /// Applies `event` and returns what to do, in order.
    @discardableResult
    public mutating func handle(_ event: ConnectionEvent) -> [ConnectionAction] {
        switch event {
        case .start:
            wanted = true
            return connectIfAllowed()
        case .stop:
            wanted = false
            return leave(to: .idle)
        case .opened:
            guard case .connecting = state else { return [] }
            state = .live
            unansweredPings = 0
            return [
                .startTimer(.ping, after: policy.pingInterval), .startTimer(.stable, after: policy.stableAfter),
                .resume, .flushOutbox,
            ]
        case .failed:
            guard case .connecting = state else { return [] }
            return wait()
        case .dropped:
            guard state == .live else { return [] }
            return [.close, .cancelTimer(.ping), .cancelTimer(.stable)] + wait()
        case .timerFired(let timer):
            return fired(timer)
        case .pong:
            unansweredPings = 0
            return []
        case .pathChanged(let available):
            networkAvailable = available
            if !available { return leave(to: .idle) }
            if case .waiting = state { return [.cancelTimer(.reconnect)] + connect() }
            return connectIfAllowed()
        case .background:
            foreground = false
            return state == .idle ? [] : leave(to: .suspended)
        case .foreground:
            foreground = true
            return wake()
        case .push:
            return state == .suspended ? wake() : []
        }
    }

    private mutating func fired(_ timer: ConnectionTimer) -> [ConnectionAction] {
        switch timer {
        case .reconnect:
            guard case .waiting = state else { return [] }
            return connect()
        case .stable:
            guard state == .live else { return [] }
            attempt = 0
            return []
        case .ping:
            guard state == .live else { return [] }
            if unansweredPings >= policy.missedPongsBeforeDrop {
                return handle(.dropped)
            }
            unansweredPings += 1
            return [.sendPing, .startTimer(.ping, after: policy.pingInterval)]
        }
    }

    /// Suspended, or idle again in the foreground: into waiting with this attempt's delay.
    private mutating func wake() -> [ConnectionAction] {
        switch state {
        case .suspended: return networkAvailable && wanted ? wait() : leave(to: .idle)
        case .idle: return connectIfAllowed()
        default: return []
        }
    }

    private mutating func connectIfAllowed() -> [ConnectionAction] {
        guard state == .idle, wanted, foreground, networkAvailable else { return [] }
        return connect()
    }

    private mutating func connect() -> [ConnectionAction] {
        state = .connecting(attempt: attempt)
        return [.open]
    }

    /// Into waiting(dₙ), n growing by one; the policy's fixed delay instead of dₙ when it has one.
    private mutating func wait() -> [ConnectionAction] {
        let delay = policy.fixedReconnectDelay ?? policy.backoff.delay(attempt: attempt, using: &random)
        state = .waiting(attempt: attempt, delay: delay)
        attempt += 1
        return [.startTimer(.reconnect, after: delay)]
    }

    /// Closes whatever is open and stops every timer.
    private mutating func leave(to next: ConnectionState) -> [ConnectionAction] {
        let previous = state
        state = next
        unansweredPings = 0
        switch previous {
        case .live: return [.close, .cancelTimer(.ping), .cancelTimer(.stable)]
        case .connecting: return [.close]
        case .waiting: return [.cancelTimer(.reconnect)]
        case .idle, .suspended: return []
        }
    }
}
