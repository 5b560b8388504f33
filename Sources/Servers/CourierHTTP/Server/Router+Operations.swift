extension Router {
    /// Adds `GET path` answering `{"status":"ok"}`, for load balancers and orchestrators.
    public mutating func addHealthCheck(path: String = "/healthz") {
        add("GET", path) { _ in .json(["status": "ok"]) }
    }

    /// Adds `GET path` serving `metrics` (and what `providers` add) in Prometheus's text format.
    /// - Parameters:
    ///   - metrics: the server's request metrics (pass the same object to `HTTPServer`).
    ///   - path: where to serve them.
    ///   - token: when set, the route needs `Authorization: Bearer <token>`.
    ///   - providers: more Prometheus text appended (a library's own counters).
    public mutating func addMetrics(
        _ metrics: HTTPMetrics, path: String = "/metrics", token: String? = nil,
        providers: [@Sendable () -> String] = []
    ) {
        add("GET", path) { request in
            if let token {
                guard request.hasBearerToken(in: [token]) else {
                    throw HTTPError(.forbidden, "a valid admin token is required (Authorization: Bearer …)")
                }
            }
            return .text(
                metrics.prometheusText() + providers.map { $0() }.joined(), contentType: "text/plain; version=0.0.4")
        }
    }
}
