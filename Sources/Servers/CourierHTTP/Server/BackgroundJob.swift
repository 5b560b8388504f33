import CourierCore

/// Work that runs beside a server for as long as it runs (expiry, pruning, tombstone GC): a
/// child task of `HTTPServer.run()`, cancelled and awaited when the server shuts down.
///
/// Each server library offers its own (`MessengerServer.backgroundJobs`); the executable hands
/// them all to the one server:
/// ```swift
/// let server = HTTPServer(
///     configuration: http, router: router, jobs: messenger.backgroundJobs + sync.backgroundJobs)
/// try await server.run()
/// ```
public struct BackgroundJob: Sendable {
    /// A name for logs and tests (`messenger.expiry`).
    public let name: String
    private let body: @Sendable () async -> Void

    /// A job of its own shape: `body` must return soon after its task is cancelled.
    /// - Parameters:
    ///   - name: a name for logs and tests.
    ///   - body: the work; it runs once, as long as it likes.
    public init(name: String, _ body: @escaping @Sendable () async -> Void) {
        self.name = name
        self.body = body
    }

    /// A job that runs `work` at once and then every `interval` of `clock`'s time, until its
    /// task is cancelled; a test drives it by advancing a manual clock.
    ///
    /// ```swift
    /// BackgroundJob.every(.seconds(3_600), on: clock, name: "sync.tombstones") {
    ///     _ = try? sync.collectTombstones()
    /// }
    /// ```
    /// - Parameters:
    ///   - interval: the time between the end of one run and the start of the next.
    ///   - clock: whose time the interval is measured in.
    ///   - name: a name for logs and tests.
    ///   - work: one run; what it throws or fails is its own to report.
    public static func every(
        _ interval: Duration, on clock: any Clock, name: String, _ work: @escaping @Sendable () async -> Void
    ) -> BackgroundJob {
        BackgroundJob(name: name) {
            while !Task.isCancelled {
                await work()
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
    }

    /// A repeating job, as `every`, whose work blocks (a database's expiry or pruning): each
    /// run goes to a thread of the jobs' own, so it never holds one of the cooperative pool's.
    /// - Parameters:
    ///   - interval: the time between the end of one run and the start of the next.
    ///   - clock: whose time the interval is measured in.
    ///   - name: a name for logs and tests.
    ///   - work: one run; it finishes even if the job is cancelled meanwhile.
    public static func every(
        _ interval: Duration, on clock: any Clock, name: String, blocking work: @escaping @Sendable () -> Void
    ) -> BackgroundJob {
        every(interval, on: clock, name: name) { await blockingJobs.run(work) }
    }

    /// Where blocking jobs run.
    private static let blockingJobs = BlockingQueues(label: "courier.jobs", count: 2)

    /// Runs the job until it returns (after its task is cancelled, for a repeating job).
    public func run() async {
        await body()
    }
}
