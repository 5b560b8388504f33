import CourierCore
import Foundation

/// The threads the libwebsockets engine's handlers run on, as a `TaskExecutor`: each request
/// (and each WebSocket) is a task that prefers it, so a handler that awaits holds no thread, while
/// the handlers never compete with the host's own work on Swift's shared pool (an app's or a
/// test run's CPU-bound tasks held both of that pool's threads on this 2-core machine, and every
/// request waited behind them).
///
/// Jobs run in arrival order on `count` threads. After `stop()`, a job that still prefers this
/// executor (a task a handler left running) goes to the shared pool instead.
final class HandlerExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `head` and `stopped` are only read or written with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var stopped = false

    /// Starts `count` threads named `name-N`.
    init(count: Int, name: String) {
        for index in 0..<max(1, count) {
            NamedThread.start("\(name)-\(index)") { [self] in work() }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        if stopped {
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(UnownedJob(job))
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads end once the jobs already queued have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count && !stopped { condition.wait() }
            guard head < jobs.count else {
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
