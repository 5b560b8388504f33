import Foundation

/// Waits for a `DispatchSemaphore` on a thread of its own, so an async test never blocks one of
/// the few threads of Swift's cooperative pool (on a 2-core machine, two blocked waits would
/// stall every task). Gives up after `timeout` of real time, so a signal that never comes fails
/// the test instead of hanging the whole run.
/// - Returns: whether the semaphore was signalled in time.
@discardableResult
public func waitOffPool(_ semaphore: DispatchSemaphore, timeout: Duration = .seconds(60)) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        Thread.detachNewThread {
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            continuation.resume(returning: semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success)
        }
    }
}

/// Runs blocking work (stopping a server, joining a thread) on a thread of its own.
public func runOffPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}

/// Runs blocking work that may throw (a raw socket's reads) on a thread of its own.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// Checks `condition` every `interval` of real time until it holds or `timeout` passes: for state
/// that offers no event to wait on (another process's output or rows, a server's counters, an
/// actor's state). Between checks the task sleeps, so it never holds a thread of the shared pool
/// away from the work it waits for; the deadline is wall-clock time, long enough for a loaded
/// machine. Returns whether it held; a cancelled task stops waiting and gets the last answer.
///
/// ```swift
/// #expect(await poll { analytics.stats.sent == 3 })
/// ```
public func poll(
    every interval: Duration = .milliseconds(10), timeout: Duration = .seconds(60),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline && !Task.isCancelled {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}

/// Runs `work` on a thread of its own and returns at once: for a slow, blocking clean-up (an
/// HTTP server's stop takes up to two seconds) that a test does not need to wait for, so that it
/// does not hold one of the few threads that every concurrently running test shares.
public func inBackground(_ work: @escaping @Sendable () -> Void) {
    Thread.detachNewThread(work)
}

/// The path of the executable product `name` that `swift build` put beside the running test
/// bundle, or `nil` when it has not been built.
public func builtExecutable(named name: String) -> String? {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = url.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        url = url.deletingLastPathComponent()
    }
    return nil
}
