import Realtime
import Testing

/// Typing indicators: debounced on the way out, expiring on the way in, never stored.
struct TypingIndicatorTests {
    let second: UInt64 = 1_000_000_000

    @Test func keystrokesBecomeOneStartedRefreshedThenOneStoppedAfterAPause() {
        var debouncer = TypingDebouncer()
        var signals: [TypingSignal] = []
        // A keystroke every half second for six seconds.
        for tick in 0...12 {
            let now = UInt64(tick) * second / 2
            if let signal = debouncer.keystroke(at: now) { signals.append(signal) }
            if let signal = debouncer.tick(at: now) { signals.append(signal) }
        }
        #expect(signals == [.started, .started])
        #expect(debouncer.tick(at: 8 * second) == nil)
        #expect(debouncer.tick(at: 9 * second) == .stopped)
        #expect(debouncer.tick(at: 10 * second) == nil)
    }

    @Test func sendingTheMessageStopsTypingAtOnce() {
        var debouncer = TypingDebouncer()
        #expect(debouncer.keystroke(at: 0) == .started)
        #expect(debouncer.sent() == .stopped)
        #expect(debouncer.sent() == nil)
        #expect(debouncer.keystroke(at: second) == .started)
    }

    @Test func aStartedExpiresAfterFiveSecondsWithoutARefresh() {
        var roster = TypingRoster()
        roster.apply(.started, from: "bob", at: 0)
        roster.apply(.started, from: "alice", at: 2 * second)
        #expect(roster.typing(at: 4 * second) == ["alice", "bob"])
        #expect(roster.typing(at: 5 * second) == ["alice"])
        roster.apply(.stopped, from: "alice", at: 6 * second)
        #expect(roster.typing(at: 6 * second) == [])
    }
}
