import Foundation
import Synchronization

/// Runs `body` as a task and blocks the calling thread until it has finished. For the benchmark's
/// synchronous driver only: never call it from Swift's cooperative pool.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    Task {
        do { outcome.finish(.success(try await body())) } catch { outcome.finish(.failure(error)) }
    }
    return try outcome.wait()
}

/// A task's result handed to a waiting thread.
private final class Outcome<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ value: Result<T, any Error>) {
        result.withLock { $0 = value }
        done.signal()
    }

    func wait() throws -> T {
        done.wait()
        return try result.withLock { $0! }.get()
    }
}

/// Runs `body`, giving up (and cancelling it) when it has not finished within `seconds`: a
/// deadline for a server that stops answering, so the benchmark reports it instead of hanging.
/// - Throws: `BenchError` naming `what` at the deadline, or what `body` throws.
func withDeadline<T: Sendable>(
    _ seconds: Int, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw BenchError("\(what): nothing within \(seconds) s")
        }
        return value
    }
}
