/// When to upload: whichever comes first of N events, T seconds since the first unsent event, the
/// app going to the background, an explicit `flush()`, or the next launch. A pure state machine:
/// it returns actions and keeps no timers itself, and asks for no timer while nothing is queued.
package struct FlushPolicy: Equatable {
    package enum Trigger: String, Equatable {
        case count, timer, background, explicit, launch, retry
    }

    package enum Action: Equatable {
        case upload(Trigger)
        case scheduleTimer(after: Duration)
        case cancelTimer
    }

    package var flushAt: Int
    package var interval: Duration
    package private(set) var timerScheduled = false

    package init(flushAt: Int, interval: Duration) {
        self.flushAt = max(1, flushAt)
        self.interval = interval
    }

    /// Events were written; `queued` are now waiting.
    package mutating func eventsStored(queued: Int) -> [Action] {
        if queued >= flushAt {
            return cancelTimer() + [.upload(.count)]
        }
        if queued > 0 && !timerScheduled {
            timerScheduled = true
            return [.scheduleTimer(after: interval)]
        }
        return []
    }

    /// The interval timer fired.
    package mutating func timerFired(queued: Int) -> [Action] {
        timerScheduled = false
        return queued > 0 ? [.upload(.timer)] : []
    }

    /// The queue was emptied by an upload (or purged).
    package mutating func queueEmptied() -> [Action] { cancelTimer() }

    /// The app went to the background, `flush()` was called, or the SDK launched.
    package mutating func trigger(_ trigger: Trigger, queued: Int) -> [Action] {
        queued > 0 ? cancelTimer() + [.upload(trigger)] : []
    }

    private mutating func cancelTimer() -> [Action] {
        guard timerScheduled else { return [] }
        timerScheduled = false
        return [.cancelTimer]
    }
}
