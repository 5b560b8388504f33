import Foundation

/// A source of wall-clock and monotonic time that components take in their initialisers,
/// so tests can drive time with a manual clock instead of sleeping.
public protocol Clock: Sendable {
    /// The current wall-clock time.
    var now: Date { get }
    /// Monotonic time in nanoseconds since an arbitrary origin; never goes backwards.
    var uptimeNanoseconds: UInt64 { get }
    /// Suspends until `duration` has passed on this clock.
    /// - Throws: `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

extension Clock {
    /// The current wall-clock time in milliseconds since 1970.
    public var nowMilliseconds: Int64 { Int64((now.timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// The real clock: `Date()` for wall time, the system's monotonic clock for uptime.
public struct SystemClock: Clock {
    /// Creates the system clock.
    public init() {}

    /// The current wall-clock time.
    public var now: Date { Date() }

    /// Monotonic nanoseconds from `DispatchTime`.
    public var uptimeNanoseconds: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Sleeps on the continuous clock.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
