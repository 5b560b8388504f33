import Foundation

/// Runs a task's jobs on the thread that waits for it: an engine worker thread answers a request
/// by running the async middleware chain on itself, as if it were synchronous. A handler that
/// blocks then blocks only that worker (as under civetweb it always did), never one of Swift's
/// few shared executor threads, and a handler that awaits parks the worker until it is resumed.
final class WorkerThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `finished` are only read or written with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        if finished {
            // The worker has gone back to its engine: a task that still prefers this executor
            // (one the handler left running) continues on the shared pool instead.
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(UnownedJob(job))
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` in a task whose jobs run on the calling thread, and returns its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let executor = WorkerThreadExecutor()
        let box = ResultBox<T>()
        Task(executorPreference: executor) {
            let value = await body()
            box.value = value
            executor.finish()
        }
        executor.runJobs()
        // `finish` ran (on this thread, inside a job) after the value was stored.
        return box.value!
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            let ready = jobs
            jobs.removeAll()
            let done = finished && ready.isEmpty
            condition.unlock()
            if done { return }
            // Jobs that arrive after `finish` go to the shared pool (see `enqueue`).
            for job in ready { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}

/// Carries a task's result to the thread that ran it.
private final class ResultBox<T>: @unchecked Sendable {
    // @unchecked: written once by the task's last job and read after `runJobs` returned, both on
    // the same thread.
    var value: T?
}
