import CourierCore
import Foundation
import Synchronization

/// An HTTP/1.1 server on libwebsockets: routes, middleware, JSON errors, body limits, gzip
/// request bodies, streamed bodies both ways, WebSocket routes, TLS, keep-alive, timeouts, an
/// access log, metrics and a graceful stop.
///
/// Connections wait on an event loop; handlers run as tasks on the server's own handler
/// threads, so a handler that awaits holds no thread (docs/http-server.md).
///
/// `run()` serves until `shutdown()`, with the background jobs as its child tasks:
/// ```swift
/// let server = HTTPServer(configuration: http, router: router, jobs: messenger.backgroundJobs)
/// try server.start()  // optional: binds now, so `port` is known before `run()`
/// async let serving: Void = server.run()
/// // … on SIGTERM:
/// await server.shutdown(deadline: .seconds(10))
/// try await serving
/// ```
/// `start()` and `stop(deadline:)` are the same lifecycle for callers that are not async (they
/// block the calling thread while stopping, and run no background jobs).
public final class HTTPServer: Sendable {
    /// The configuration it was started with.
    public let configuration: HTTPServerConfiguration
    /// Per-route counters and latency histograms (served where `Router.addMetrics` mounts them).
    public let metrics: HTTPMetrics
    /// What runs beside the server under `run()`.
    public let jobs: [BackgroundJob]
    let responder: Responder
    private let phase: Mutex<Phase> = Mutex(.idle)
    private let boundPort = Atomic<Int>(0)
    private let running = Atomic<Bool>(false)
    /// Signalled with the number of requests left unanswered once the server has stopped.
    private let stopped = CompletionEvent<Int>()

    private enum Phase {
        case idle
        case running(any HTTPEngine)
        case stopping
        case stopped
    }

    /// Creates a server; nothing listens until `start()` or `run()`.
    ///
    /// `/healthz` and `/metrics` are routes like any other: mount them with
    /// `router.addHealthCheck()` and `router.addMetrics(metrics)`, passing the same `metrics` here.
    /// - Parameters:
    ///   - configuration: address, threads, limits, access log.
    ///   - router: the application's routes.
    ///   - metrics: where per-route counters and latencies are recorded.
    ///   - middleware: the application's middleware, outermost first; they run after the
    ///     server's own layers (log, metrics, CORS, error answers) and before gzip decoding and
    ///     the handler.
    ///   - jobs: background work that `run()` runs as its child tasks and stops on shutdown.
    public init(
        configuration: HTTPServerConfiguration, router: Router, metrics: HTTPMetrics = HTTPMetrics(),
        middleware: [any HTTPMiddleware] = [], jobs: [BackgroundJob] = []
    ) {
        self.configuration = configuration
        self.metrics = metrics
        self.jobs = jobs
        responder = Responder(
            router: router, configuration: configuration, metrics: metrics,
            lifecycle: ServerLifecycle(), middleware: middleware)
    }

    /// The engine while the server runs (tests look inside it).
    var runningEngine: (any HTTPEngine)? {
        phase.withLock { phase in
            if case .running(let engine) = phase { return engine }
            return nil
        }
    }

    /// The port the server listens on (the chosen one when configured with port 0).
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// `http://host:port`, or `https://` with TLS.
    public var baseURL: String { "\(configuration.tls == nil ? "http" : "https")://\(configuration.host):\(port)" }

    /// Binds and starts serving; does nothing when it already serves.
    /// - Throws: `HTTPServerError` if the address cannot be bound, or the server has stopped (a
    ///   stopped server does not start again: create a new one).
    public func start() throws {
        try phase.withLock { phase in
            switch phase {
            case .running: return
            case .stopping, .stopped: throw HTTPServerError("the server has stopped; create a new one to serve again")
            case .idle:
                let started = try startEngine(configuration: configuration, responder: responder)
                boundPort.store(started.port, ordering: .releasing)
                phase = .running(started)
            }
        }
    }

    /// Starts serving (unless `start()` already did), runs the background jobs as child tasks,
    /// and returns once the server has stopped: after `shutdown(deadline:)` or `stop(deadline:)`
    /// has answered what was in flight and the jobs have ended. Cancelling the calling task
    /// shuts the server down as `shutdown()` does.
    /// - Throws: `HTTPServerError` if the address cannot be bound, the server has stopped, or
    ///   `run()` was already called.
    public func run() async throws {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else {
            throw HTTPServerError("run() was already called on this server")
        }
        try start()
        await withTaskGroup(of: Void.self) { group in
            for job in jobs { group.addTask { await job.run() } }
            await withTaskCancellationHandler {
                _ = await stopped.value
            } onCancel: {
                Task { await self.shutdown() }
            }
            group.cancelAll()
            await group.waitForAll()
        }
    }

    deinit { stop(deadline: .zero) }

    /// Stops gracefully: requests in flight finish and are answered (new ones get `503` with
    /// `Retry-After` and `Connection: close`) until `deadline`, then the server stops listening
    /// and `run()` returns once the background jobs have ended. Suspends meanwhile, holding no
    /// thread; a second call waits for the first. Called from a cancelled task, it does not wait
    /// for requests in flight.
    /// - Returns: how many requests were still unanswered at the deadline (0 after a clean stop).
    @discardableResult
    public func shutdown(deadline: Duration = .seconds(10)) async -> Int {
        switch beginStop() {
        case .engine(let engine):
            let left = await engine.shutdown(deadline: deadline)
            finishStop(left)
            return left
        case .wait:
            return await stopped.value
        case .done(let left):
            return left
        }
    }

    /// Stops as `shutdown(deadline:)` does, blocking the calling thread meanwhile (call it off
    /// Swift's cooperative pool, or from synchronous code).
    /// - Returns: how many requests were still unanswered at the deadline (0 after a clean stop).
    @discardableResult
    public func stop(deadline: Duration = .seconds(10)) -> Int {
        switch beginStop() {
        case .engine(let engine):
            let left = engine.stop(deadline: deadline)
            finishStop(left)
            return left
        case .wait:
            return stopped.wait()
        case .done(let left):
            return left
        }
    }

    private enum StopAction {
        /// This caller stops the engine.
        case engine(any HTTPEngine)
        /// Another caller is stopping it.
        case wait
        /// Nothing to stop.
        case done(Int)
    }

    private func beginStop() -> StopAction {
        let action = phase.withLock { phase -> StopAction in
            switch phase {
            case .running(let engine):
                phase = .stopping
                return .engine(engine)
            case .stopping: return .wait
            case .idle:
                phase = .stopped
                return .done(0)
            case .stopped: return .done(0)
            }
        }
        if case .done = action { stopped.signal(0) }
        return action
    }

    private func finishStop(_ left: Int) {
        phase.withLock { $0 = .stopped }
        stopped.signal(left)
    }
}
