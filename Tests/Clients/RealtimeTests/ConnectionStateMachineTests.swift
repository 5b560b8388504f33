import CourierCore
import Realtime
import Testing

/// Every transition of the lifecycle drawing, fed by hand: no sockets, no clocks.
struct ConnectionStateMachineTests {
    var machine = ConnectionStateMachine(random: JitterSource(seed: 7))

    @Test func idleGoesToConnectingOnStartInTheForegroundWithANetwork() {
        var machine = machine
        #expect(machine.state == .idle)
        #expect(machine.handle(.start) == [.open])
        #expect(machine.state == .connecting(attempt: 0))
    }

    @Test func idleWaitsForTheForegroundAndANetwork() {
        var machine = machine
        machine.handle(.pathChanged(available: false))
        machine.handle(.background)
        #expect(machine.handle(.start) == [])
        #expect(machine.handle(.pathChanged(available: true)) == [])
        #expect(machine.state == .idle)
        #expect(machine.handle(.foreground) == [.open])
        #expect(machine.state == .connecting(attempt: 0))
    }

    @Test func openedGoesLiveThenResumesBeforeFlushingTheOutbox() {
        var machine = machine
        machine.handle(.start)
        let actions = machine.handle(.opened)
        #expect(machine.state == .live)
        #expect(
            actions == [
                .startTimer(.ping, after: .seconds(25)), .startTimer(.stable, after: .seconds(30)), .resume,
                .flushOutbox,
            ])
    }

    @Test func aFailedConnectWaitsWithAGrowingWindow() throws {
        var machine = machine
        machine.handle(.start)
        for n in 0..<8 {
            let actions = machine.handle(.failed)
            guard case .waiting(let attempt, let delay) = machine.state else {
                Issue.record("not waiting: \(machine.state)")
                return
            }
            #expect(attempt == n)
            #expect(delay >= .zero && delay <= machine.policy.backoff.window(attempt: n))
            #expect(actions == [.startTimer(.reconnect, after: delay)])
            #expect(machine.handle(.timerFired(.reconnect)) == [.open])
            #expect(machine.state == .connecting(attempt: n + 1))
        }
    }

    @Test func aDropFromLiveClosesStopsTheTimersAndWaits() {
        var machine = machine
        machine.handle(.start)
        machine.handle(.opened)
        let actions = machine.handle(.dropped)
        guard case .waiting(0, let delay) = machine.state else {
            Issue.record("not waiting: \(machine.state)")
            return
        }
        #expect(
            actions == [.close, .cancelTimer(.ping), .cancelTimer(.stable), .startTimer(.reconnect, after: delay)])
    }

    @Test func thePathComingBackEndsTheWaitAtOnce() {
        var machine = machine
        machine.handle(.start)
        machine.handle(.failed)
        #expect(machine.handle(.pathChanged(available: true)) == [.cancelTimer(.reconnect), .open])
        #expect(machine.state == .connecting(attempt: 1))
    }

    @Test func losingThePathFromLiveClosesAndGoesIdleUntilItReturns() {
        var machine = machine
        machine.handle(.start)
        machine.handle(.opened)
        #expect(machine.handle(.pathChanged(available: false)) == [.close, .cancelTimer(.ping), .cancelTimer(.stable)])
        #expect(machine.state == .idle)
        #expect(machine.handle(.pathChanged(available: true)) == [.open])
    }

    @Test func liveGoesSuspendedInTheBackgroundAndWaitsOnAPushOrTheForeground() {
        for wake in [ConnectionEvent.push, .foreground] {
            var machine = machine
            machine.handle(.start)
            machine.handle(.opened)
            #expect(machine.handle(.background) == [.close, .cancelTimer(.ping), .cancelTimer(.stable)])
            #expect(machine.state == .suspended)
            #expect(machine.handle(.timerFired(.ping)) == [])
            let actions = machine.handle(wake)
            guard case .waiting(_, let delay) = machine.state else {
                Issue.record("\(wake) did not lead to waiting: \(machine.state)")
                continue
            }
            #expect(actions == [.startTimer(.reconnect, after: delay)])
        }
    }

    @Test func stopFromAnyStateGoesIdle() {
        var machine = machine
        machine.handle(.start)
        machine.handle(.failed)
        #expect(machine.handle(.stop) == [.cancelTimer(.reconnect)])
        #expect(machine.state == .idle)
        #expect(machine.handle(.timerFired(.reconnect)) == [])
    }

    @Test func aFixedReconnectDelayWaitsTheSameEveryTimeWithNoJitter() {
        var policy = ConnectionPolicy()
        policy.fixedReconnectDelay = .seconds(1)
        var machine = ConnectionStateMachine(policy: policy, random: JitterSource(seed: 7))
        machine.handle(.start)
        for n in 0..<6 {
            #expect(machine.handle(.failed) == [.startTimer(.reconnect, after: .seconds(1))])
            #expect(machine.state == .waiting(attempt: n, delay: .seconds(1)))
            machine.handle(.timerFired(.reconnect))
        }
        machine.handle(.opened)
        #expect(
            machine.handle(.dropped) == [
                .close, .cancelTimer(.ping), .cancelTimer(.stable), .startTimer(.reconnect, after: .seconds(1)),
            ])
        #expect(ConnectionPolicy().fixedReconnectDelay == nil)
    }

    @Test func nResetsOnlyAfterThirtySecondsLive() {
        var machine = machine
        machine.handle(.start)
        for _ in 0..<5 {
            machine.handle(.failed)
            machine.handle(.timerFired(.reconnect))
        }
        machine.handle(.opened)
        // Dropped before the stable timer: the window keeps growing.
        machine.handle(.dropped)
        #expect(machine.attempt == 6)
        machine.handle(.timerFired(.reconnect))
        machine.handle(.opened)
        machine.handle(.timerFired(.stable))
        #expect(machine.attempt == 0)
        machine.handle(.dropped)
        #expect(machine.state.description.hasPrefix("waiting(n=0"))
    }

    @Test func twoMissedPongsDropTheConnection() {
        var machine = machine
        machine.handle(.start)
        machine.handle(.opened)
        #expect(machine.handle(.timerFired(.ping)) == [.sendPing, .startTimer(.ping, after: .seconds(25))])
        #expect(machine.handle(.timerFired(.ping)) == [.sendPing, .startTimer(.ping, after: .seconds(25))])
        let actions = machine.handle(.timerFired(.ping))
        #expect(actions.prefix(3) == [.close, .cancelTimer(.ping), .cancelTimer(.stable)])
        #expect(machine.state.description.hasPrefix("waiting"))
    }

    @Test func aPongKeepsTheConnection() {
        var machine = machine
        machine.handle(.start)
        machine.handle(.opened)
        for _ in 0..<10 {
            #expect(machine.handle(.timerFired(.ping)).first == .sendPing)
            machine.handle(.pong)
        }
        #expect(machine.state == .live)
    }

    @Test func staleEventsChangeNothing() {
        var machine = machine
        #expect(machine.handle(.opened) == [])
        #expect(machine.handle(.failed) == [])
        #expect(machine.handle(.dropped) == [])
        #expect(machine.handle(.timerFired(.stable)) == [])
        #expect(machine.state == .idle)
    }

    /// Full jitter: the delays of attempt n fill `0…min(cap, base·2ⁿ)` evenly, never past it.
    @Test(arguments: [0, 1, 3, 6, 10])
    func jitterStaysWithinTheWindowAndSpreadsOverIt(attempt: Int) {
        let policy = ConnectionPolicy()
        let window = policy.backoff.window(attempt: attempt)
        #expect(window == min(.seconds(30), .seconds(1) * (1 << attempt)))
        var random = JitterSource(seed: UInt64(attempt))
        let delays = (0..<4_000).map { _ in policy.backoff.delay(attempt: attempt, using: &random) }
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= window })
        let mean = delays.reduce(Duration.zero, +) / delays.count
        #expect(mean > window * 0.45 && mean < window * 0.55)
        let lowQuarter = delays.filter { $0 < window / 4 }.count
        #expect(lowQuarter > 800 && lowQuarter < 1_200)
    }
}
