import CourierHTTPClient
import Testing

@testable import CourierHTTP

/// How a request's path finds its route: literal routes are compared with the path whole, routes
/// with parameters segment by segment, in the order the routes were added either way.
struct RouterMatchTests {
    func router() -> Router {
        var router = Router()
        router.add("GET", "/") { _ in .text("root") }
        router.add("GET", "/things/{id}") { _ in .text("thing") }
        router.add("GET", "/things/count") { _ in .text("count") }
        router.add("GET", "/v1/batch") { _ in .text("get") }
        router.add("POST", "/v1/batch") { _ in .text("post") }
        router.group("/v2") { group in
            group.add("GET", "/plain") { _ in .text("grouped") }
        }
        return router
    }

    func pattern(_ match: Router.Match) -> String? {
        guard case .found(let route, _) = match else { return nil }
        return "\(route.method.rawValue) \(route.pattern)"
    }

    @Test(arguments: [
        ("/", "GET /"),
        ("/v1/batch", "GET /v1/batch"),
        ("//v1//batch/", "GET /v1/batch"),
        ("v1/batch", "GET /v1/batch"),
        ("/v2/plain", "GET /v2/plain"),
        ("/v2//plain", "GET /v2/plain"),
        // Added first, the route with a parameter takes a path the literal one would too.
        ("/things/count", "GET /things/{id}"),
        ("/things/7", "GET /things/{id}"),
    ])
    func aPathFindsTheFirstRouteThatMatchesIt(path: String, expected: String) {
        #expect(pattern(router().match(method: .get, path: path)) == expected)
    }

    @Test func otherMethodsAndPathsAreTold() {
        let router = router()
        #expect(pattern(router.match(method: .post, path: "/v1/batch")) == "POST /v1/batch")
        #expect(pattern(router.match(method: .head, path: "/v1/batch")) == "GET /v1/batch")
        guard case .methodNotAllowed(let allowed) = router.match(method: .delete, path: "/v1/batch") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == [.get, .post])
        guard case .notFound = router.match(method: .get, path: "/v1/batchx") else {
            Issue.record("expected 404")
            return
        }
        guard case .found(_, let parameters) = router.match(method: .get, path: "/things/42") else {
            Issue.record("expected the thing")
            return
        }
        #expect(parameters == ["id": "42"])
    }

    @Test(arguments: [("/", true), ("/a/b", true), ("/a/b/", false), ("//a", false), ("a/b", false), ("", false)])
    func plainPathsAreTheOnesWithoutEmptySegments(path: String, plain: Bool) {
        #expect(Router.isPlain(path) == plain)
    }

    /// A route's fields share one box between copies: a field set on a copy (as each server's
    /// responder sets its chains and metrics series on its own copy of the router) must leave
    /// the other copies as they were.
    @Test func aFieldSetOnACopiedRouteLeavesTheOtherCopies() {
        let original = router()
        var copy = original
        copy.routes[0].memoryAnswer = { _ in .text("from memory") }
        copy.routes[0].loopPipeline = { _, _ in .text("loop") }
        #expect(original.routes[0].memoryAnswer == nil)
        #expect(original.routes[0].loopPipeline == nil)
        #expect(copy.routes[0].memoryAnswer != nil)
        #expect(copy.routes[0].loopPipeline != nil)
        #expect(copy.routes[0].pattern == "/", "the fields not set are kept")
        #expect(copy.routes[1].loopPipeline == nil)
    }
}
