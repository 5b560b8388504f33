import Synchronization

/// Runs the jobs of `.onLoop` routes on an engine's loop thread, as a `TaskExecutor`.
///
/// The loop starts a request's task inside `run(_:)`, which then runs every job queued (the task's
/// own, and any it leads to) before it returns, so a handler that does not suspend has answered
/// by the time the loop goes on. A job queued from another thread (a handler resumed after an
/// await) wakes the loop, which runs it in its next `run(_:)`; while the loop is running jobs,
/// it picks such a job up without being woken.
///
/// After `stop()`, jobs go to the shared pool instead.
final class LoopExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `state` is a `Mutex`; `wakeLoop` is immutable.
    private struct State: ~Copyable {
        var jobs: [UnownedJob] = []
        var running = false
        var stopped = false
    }

    private let state = Mutex(State())
    private let wakeLoop: @Sendable () -> Void

    /// - Parameter wakeLoop: wakes the loop (from any thread), which then calls `run(_:)`.
    init(wakeLoop: @escaping @Sendable () -> Void) {
        self.wakeLoop = wakeLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let (stopped, wake) = state.withLock { state -> (Bool, Bool) in
            if state.stopped { return (true, false) }
            state.jobs.append(unowned)
            return (false, !state.running)
        }
        if stopped {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
        } else if wake {
            wakeLoop()
        }
    }

    /// On the loop thread: calls `start` (which may queue jobs without waking the loop), then runs
    /// every queued job until none is left.
    func run(_ start: () -> Void = {}) {
        let outermost = state.withLock { state -> Bool in
            defer { state.running = true }
            return !state.running
        }
        start()
        guard outermost else { return }
        while true {
            let jobs = state.withLock { state -> [UnownedJob] in
                let jobs = state.jobs
                state.jobs = []
                if jobs.isEmpty { state.running = false }
                return jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// On the loop thread, as the loop ends: runs what is queued, then sends later jobs to the
    /// shared pool.
    func stop() {
        run()
        state.withLock { $0.stopped = true }
        run()
    }
}
