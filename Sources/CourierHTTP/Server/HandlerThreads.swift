import Foundation
import Synchronization

/// A fixed set of threads that run the libwebsockets engine's handlers, off the event loop.
///
/// Handlers are still synchronous and may block (a collector handler waits for its group
/// commit). On a dispatch queue they would hold libdispatch's few pool threads (about one per
/// core) and others would wait for it to add threads, seconds later; here `workerThreads`
/// threads take jobs in arrival order, and a blocked handler holds only its own.
final class HandlerThreads: Sendable {
    private struct State: ~Copyable {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var stopped = false
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let count: Int

    /// Starts `count` threads named `name`.
    init(count: Int, name: String) {
        self.count = max(1, count)
        for index in 0..<self.count {
            let thread = Thread { [self] in work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Runs `job` on one of the threads.
    func submit(_ job: @escaping @Sendable () -> Void) {
        state.withLock { $0.jobs.append(job) }
        ready.signal()
    }

    /// Lets each thread end once the jobs already submitted have run.
    func stop() {
        state.withLock { $0.stopped = true }
        for _ in 0..<count { ready.signal() }
    }

    private func work() {
        while true {
            ready.wait()
            let next = state.withLock { state -> (@Sendable () -> Void)?? in
                guard state.head < state.jobs.count else { return state.stopped ? .some(nil) : nil }
                let job = state.jobs[state.head]
                state.head += 1
                if state.head > 1024, state.head * 2 > state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return .some(job)
            }
            switch next {
            case .some(.some(let job)): job()
            case .some(.none): return
            case .none: continue
            }
        }
    }
}
