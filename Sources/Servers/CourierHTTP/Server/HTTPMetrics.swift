import Synchronization

/// Request counts and latency histograms per route, printed in Prometheus's text format.
public final class HTTPMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    public static let bucketBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Key: Hashable {
        let method: String
        let route: String
    }

    struct Series {
        var statusCounts: [Int: Int] = [:]
        var buckets = [Int](repeating: 0, count: HTTPMetrics.bucketBounds.count)
        var count = 0
        var sum = 0.0

        mutating func record(status: Int, seconds: Double) {
            statusCounts[status, default: 0] += 1
            if let bucket = HTTPMetrics.bucketBounds.firstIndex(where: { seconds <= $0 }) { buckets[bucket] += 1 }
            count += 1
            sum += seconds
        }
    }

    private let series = Mutex<[Key: Series]>([:])
    private static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE",
    ]
    private let refused = Atomic<Int>(0)

    /// Creates empty metrics.
    public init() {}

    /// Records one request.
    public func record(method: String, route: String, status: Int, seconds: Double) {
        // The method is the client's text: any other than the usual ones is counted as OTHER,
        // so the series stay bounded by the routes.
        let key = Key(method: Self.knownMethods.contains(method) ? method : "OTHER", route: route)
        // Changed in place: copying the series out and back would copy its buckets each time.
        series.withLock { all in all[key, default: Series()].record(status: status, seconds: seconds) }
    }

    /// Connections closed as soon as they were accepted because `maximumConnections` were open
    /// (libwebsockets engine only).
    public var refusedConnections: Int { refused.load(ordering: .relaxed) }

    /// Counts one connection refused at accept.
    func recordRefusedConnection() { refused.add(1, ordering: .relaxed) }

    /// How many requests a route has answered with `status` (all statuses when `nil`).
    public func count(method: String, route: String, status: Int? = nil) -> Int {
        series.withLock { all in
            guard let s = all[Key(method: method, route: route)] else { return 0 }
            if let status { return s.statusCounts[status] ?? 0 }
            return s.count
        }
    }

    /// The metrics in Prometheus text exposition format.
    public func prometheusText() -> String {
        let snapshot = series.withLock { $0 }
        var out = "# HELP courier_http_requests_total HTTP requests by route and status.\n"
        out += "# TYPE courier_http_requests_total counter\n"
        let keys = snapshot.keys.sorted { ($0.route, $0.method) < ($1.route, $1.method) }
        for key in keys {
            guard let s = snapshot[key] else { continue }
            for (status, n) in s.statusCounts.sorted(by: { $0.key < $1.key }) {
                out +=
                    "courier_http_requests_total{method=\"\(key.method)\",route=\"\(key.route)\",status=\"\(status)\"} \(n)\n"
            }
        }
        out += "# HELP courier_http_request_duration_seconds HTTP request latency by route.\n"
        out += "# TYPE courier_http_request_duration_seconds histogram\n"
        for key in keys {
            guard let s = snapshot[key] else { continue }
            let labels = "method=\"\(key.method)\",route=\"\(key.route)\""
            var cumulative = 0
            for (i, bound) in Self.bucketBounds.enumerated() {
                cumulative += s.buckets[i]
                out += "courier_http_request_duration_seconds_bucket{\(labels),le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "courier_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(s.count)\n"
            out += "courier_http_request_duration_seconds_sum{\(labels)} \(s.sum)\n"
            out += "courier_http_request_duration_seconds_count{\(labels)} \(s.count)\n"
        }
        out += "# HELP courier_http_connections_refused_total Connections closed at accept (maximumConnections).\n"
        out += "# TYPE courier_http_connections_refused_total counter\n"
        out += "courier_http_connections_refused_total \(refusedConnections)\n"
        return out
    }
}
