import CourierHTTP
import Testing

/// The metrics' series against methods a client made up.
struct HTTPMetricsTests {
    /// A method is the client's text: unusual ones share one `OTHER` series, so the series stay
    /// bounded by the routes however many methods clients invent.
    @Test func madeUpMethodsShareOneSeries() {
        let metrics = HTTPMetrics()
        for number in 0..<1_000 {
            metrics.record(
                method: String(repeating: "X", count: 4_096) + String(number), route: "unmatched", status: 404,
                seconds: 0.001)
        }
        metrics.record(method: "GET", route: "unmatched", status: 404, seconds: 0.001)
        #expect(metrics.count(method: "OTHER", route: "unmatched") == 1_000)
        #expect(metrics.count(method: "GET", route: "unmatched") == 1)
        #expect(metrics.prometheusText().utf8.count < 10_000)
    }
}
