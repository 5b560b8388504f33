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

/// Each route's series is found once, when the server starts, and a request of the route's own
/// method records into it: the counts and the text are what recording by name gave.
struct RouteMetricsSeriesTests {
    @Test func routeSeriesCountAsBeforeAndOnlyRequestedOnesArePrinted() async throws {
        var router = Router()
        router.add("GET", "/items/{id}") { _ in .text("item") }
        router.add("GET", "/never") { _ in .text("never asked") }
        router.add("GET", "/refused") { _ in throw HTTPError(.forbidden, "no") }
        let metrics = HTTPMetrics()
        let server = HTTPServer(configuration: HTTPServerConfiguration(), router: router, metrics: metrics)
        for id in 0..<3 { _ = await server.respondInProcess(to: HTTPRequest(method: .get, path: "/items/\(id)")) }
        _ = await server.respondInProcess(to: HTTPRequest(method: .head, path: "/items/1"))
        _ = await server.respondInProcess(to: HTTPRequest(method: .get, path: "/refused"))
        _ = await server.respondInProcess(to: HTTPRequest(method: .get, path: "/refused"))
        #expect(metrics.count(method: "GET", route: "/items/{id}") == 3)
        #expect(metrics.count(method: "GET", route: "/items/{id}", status: 200) == 3)
        #expect(metrics.count(method: "HEAD", route: "/items/{id}") == 1, "a HEAD on a GET route has its own series")
        #expect(metrics.count(method: "GET", route: "/refused", status: 403) == 2)
        let text = metrics.prometheusText()
        #expect(text.contains(#"courier_http_requests_total{method="GET",route="/items/{id}",status="200"} 3"#))
        #expect(text.contains(#"courier_http_requests_total{method="HEAD",route="/items/{id}",status="200"} 1"#))
        #expect(text.contains(#"courier_http_request_duration_seconds_count{method="GET",route="/refused"} 2"#))
        #expect(!text.contains("/never"), "a route no request reached prints no series")
    }
}
