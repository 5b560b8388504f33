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
        /// Requests by status, in the order the statuses first came (a route answers few).
        var statusCounts: [(status: Int, count: Int)] = []
        var buckets = [Int](repeating: 0, count: HTTPMetrics.bucketBounds.count)
        var count = 0
        var sum = 0.0

        mutating func record(status: Int, seconds: Double) {
            if let index = statusCounts.firstIndex(where: { $0.status == status }) {
                statusCounts[index].count += 1
            } else {
                statusCounts.append((status, 1))
            }
            if let bucket = HTTPMetrics.bucketBounds.firstIndex(where: { seconds <= $0 }) { buckets[bucket] += 1 }
            count += 1
            sum += seconds
        }

        func count(status: Int) -> Int { statusCounts.first { $0.status == status }?.count ?? 0 }
    }

    /// One series, behind its own lock: a route's is found once, when the server is made
    /// (`series(method:route:)`), and a request to it records without looking it up.
    final class SeriesBox: Sendable {
        let series = Mutex(Series())

        func record(status: Int, seconds: Double) {
            series.withLock { $0.record(status: status, seconds: seconds) }
        }
    }

    private let series = Mutex<[Key: SeriesBox]>([:])
    private static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE",
    ]
    private let refused = Atomic<Int>(0)
    private let headerTablesCopied = Atomic<Int>(0)

    /// Creates empty metrics.
    public init() {}

    /// Records one request.
    public func record(method: String, route: String, status: Int, seconds: Double) {
        series(method: method, route: route).record(status: status, seconds: seconds)
    }

    /// The series of `method` on `route`, made when first asked for. A series no request has
    /// recorded in is not printed.
    func series(method: String, route: String) -> SeriesBox {
        // The method is the client's text: any other than the usual ones is counted as OTHER,
        // so the series stay bounded by the routes.
        let key = Key(method: Self.knownMethods.contains(method) ? method : "OTHER", route: route)
        return series.withLock { all in
            if let box = all[key] { return box }
            let box = SeriesBox()
            all[key] = box
            return box
        }
    }

    /// Connections closed as soon as they were accepted because `maximumConnections` were open
    /// (libwebsockets engine only).
    public var refusedConnections: Int { refused.load(ordering: .relaxed) }

    /// Counts one connection refused at accept.
    func recordRefusedConnection() { refused.add(1, ordering: .relaxed) }

    /// Requests answered in the loop's callback whose header table was copied because a copy of
    /// the request outlived the callback (libwebsockets engine only): the rest were read from
    /// lws without a copy (`LoopHeaderTable`).
    var headerTablesCopiedOnTheLoop: Int { headerTablesCopied.load(ordering: .relaxed) }

    /// Counts one header table copied as its request left the loop's callback.
    func recordHeaderTableCopied() { headerTablesCopied.add(1, ordering: .relaxed) }

    /// How many requests a route has answered with `status` (all statuses when `nil`).
    public func count(method: String, route: String, status: Int? = nil) -> Int {
        guard let box = series.withLock({ $0[Key(method: method, route: route)] }) else { return 0 }
        return box.series.withLock { s in status.map(s.count(status:)) ?? s.count }
    }

    /// The metrics in Prometheus text exposition format.
    public func prometheusText() -> String {
        let snapshot = series.withLock { $0 }.compactMapValues { box in
            box.series.withLock { $0.count > 0 ? $0 : nil }
        }
        var out = "# HELP courier_http_requests_total HTTP requests by route and status.\n"
        out += "# TYPE courier_http_requests_total counter\n"
        let keys = snapshot.keys.sorted { ($0.route, $0.method) < ($1.route, $1.method) }
        for key in keys {
            guard let s = snapshot[key] else { continue }
            for (status, n) in s.statusCounts.sorted(by: { $0.status < $1.status }) {
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
