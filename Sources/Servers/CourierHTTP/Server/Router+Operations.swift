extension Router {
    /// Adds `GET path` answering `{"status":"ok"}`, for load balancers and orchestrators. It is
    /// answered on the engine's loop (`RouteExecution.onLoop`).
    public mutating func addHealthCheck(path: String = "/healthz") {
        add("GET", path, execution: .onLoop) { _ in .json(["status": "ok"]) }
    }

    /// Adds `GET path` serving `metrics` (and what `providers` add) in Prometheus's text format,
    /// answered on the engine's loop (`RouteExecution.onLoop`): a provider must only read
    /// counters, never wait.
    /// - Parameters:
    ///   - metrics: the server's request metrics (pass the same object to `HTTPServer`).
    ///   - path: where to serve them.
    ///   - token: when set, the route needs `Authorization: Bearer <token>`.
    ///   - providers: more Prometheus text appended (a library's own counters).
    public mutating func addMetrics(
        _ metrics: HTTPMetrics, path: String = "/metrics", token: String? = nil,
        providers: [@Sendable () -> String] = []
    ) {
        let serve: HTTPHandler = { _ in
            .text(metrics.prometheusText() + providers.map { $0() }.joined(), contentType: "text/plain; version=0.0.4")
        }
        guard let token else { return add("GET", path, execution: .onLoop, serve) }
        group(middleware: [AdminAuthMiddleware(token: token)]) { admin in
            admin.add("GET", path, execution: .onLoop, serve)
        }
    }
}
