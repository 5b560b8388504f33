import CourierCore
import Foundation
import Synchronization

/// An HTTP/1.1 server on libwebsockets: routes, middleware, JSON errors, body limits, gzip
/// request bodies, streamed bodies both ways, WebSocket routes, TLS, keep-alive, timeouts, an
/// access log, metrics and a graceful stop.
///
/// Connections wait on an event loop; handlers run as tasks on the server's own handler
/// threads, so a handler that awaits holds no thread (docs/http-server.md).
public final class HTTPServer: Sendable {
    /// The configuration it was started with.
    public let configuration: HTTPServerConfiguration
    /// Per-route counters and latency histograms (served where `Router.addMetrics` mounts them).
    public let metrics: HTTPMetrics
    let responder: Responder
    private let engine: Mutex<(any HTTPEngine)?> = Mutex(nil)
    private let boundPort = Atomic<Int>(0)

    /// Creates a server; nothing listens until `start()`.
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
    public init(
        configuration: HTTPServerConfiguration, router: Router, metrics: HTTPMetrics = HTTPMetrics(),
        middleware: [any HTTPMiddleware] = []
    ) {
        self.configuration = configuration
        self.metrics = metrics
        responder = Responder(
            router: router, configuration: configuration, metrics: metrics,
            lifecycle: ServerLifecycle(), middleware: middleware)
    }

    /// The engine while the server runs (tests look inside it).
    var runningEngine: (any HTTPEngine)? { engine.withLock { $0 } }

    /// The port the server listens on (the chosen one when configured with port 0).
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// `http://host:port`, or `https://` with TLS.
    public var baseURL: String { "\(configuration.tls == nil ? "http" : "https")://\(configuration.host):\(port)" }

    /// Binds and starts serving.
    /// - Throws: `HTTPServerError` if the address cannot be bound.
    public func start() throws {
        try engine.withLock { engine in
            guard engine == nil else { return }
            let started = try startEngine(configuration: configuration, responder: responder)
            boundPort.store(started.port, ordering: .releasing)
            engine = started
        }
    }

    deinit { stop(deadline: .zero) }

    /// Stops gracefully: requests in flight finish and are answered (new ones get `503` with
    /// `Retry-After` and `Connection: close`) until `deadline`, then the server stops listening
    /// and returns.
    /// - Returns: how many requests were still unanswered at the deadline (0 after a clean stop).
    @discardableResult
    public func stop(deadline: Duration = .seconds(10)) -> Int {
        let running = engine.withLock { engine -> (any HTTPEngine)? in
            let e = engine
            engine = nil
            return e
        }
        return running?.stop(deadline: deadline) ?? 0
    }
}
