import CourierCore
import Testing

@testable import CourierHTTP

/// Route groups, answered through the server's request pipeline without a socket or an engine.
@Suite(.timeLimit(.minutes(1)))
struct RouterGroupTests {
    let trail = Trail()

    /// Answers `request` as the server would, with `middleware` server-wide.
    func answer(
        _ router: Router, _ method: HTTPMethod, _ path: String, headers: [String: String] = [:],
        middleware: [any HTTPMiddleware] = []
    ) async -> HTTPResponse {
        let responder = Responder(
            router: router, configuration: HTTPServerConfiguration(), metrics: HTTPMetrics(),
            lifecycle: ServerLifecycle(), middleware: middleware)
        let request = HTTPRequest(method: method, path: path, headers: headers)
        return await responder.respond(
            to: request, match: router.match(method: method, path: path), bodyTooLarge: false, startedAt: 0)
    }

    func router() -> Router {
        var router = Router()
        let trail = trail
        router.add("GET", "/open") { _ in .json(["open": true]) }
        router.group("/v1/things", middleware: [TrailMiddleware(name: "outer", trail: trail)]) { things in
            things.add("GET", "/{id}") { request, context in
                trail.add("handler \(request.pathParameters["id"] ?? "") \(context.route ?? "-")")
                return .json(["id": .string(request.pathParameters["id"] ?? "")])
            }
            things.group("/admin", middleware: [TrailMiddleware(name: "inner", trail: trail)]) { admin in
                admin.add("GET", "/stats") { _ in
                    trail.add("admin handler")
                    return .json(["admin": true])
                }
            }
        }
        return router
    }

    @Test func aGroupPutsItsPrefixBeforeItsPatterns() async throws {
        let router = router()
        let thing = await answer(router, .get, "/v1/things/7")
        #expect(thing.json == ["id": "7"])
        #expect(trail.all == ["outer in", "handler 7 /v1/things/{id}", "outer out"])
        #expect(await answer(router, .get, "/v1/things/admin/stats").json == ["admin": true])
        #expect(await answer(router, .get, "/7").status == 404)
    }

    @Test func aGroupsMiddlewareRunsOnlyForItsRoutes() async throws {
        let router = router()
        let open = await answer(router, .get, "/open")
        #expect(open.json == ["open": true])
        #expect(open.header("x-seen-by") == nil)
        #expect(trail.all.isEmpty)
        // Nor for a request that matched no route, or matched its path with another method.
        #expect(await answer(router, .get, "/v1/nothing/here").status == 404)
        #expect(await answer(router, .post, "/v1/things/7").status == 405)
        #expect(trail.all.isEmpty)
    }

    @Test func nestedGroupsRunOuterMiddlewareFirstAfterTheServersOwn() async throws {
        let server = TrailMiddleware(name: "server", trail: trail)
        let response = await answer(router(), .get, "/v1/things/admin/stats", middleware: [server])
        #expect(response.status == 200)
        #expect(
            trail.all == [
                "server in", "outer in", "inner in", "admin handler", "inner out", "outer out", "server out",
            ])
        #expect(response.headers.filter { $0.0 == "X-Seen-By" }.map(\.1) == ["inner", "outer", "server"])
    }

    @Test func aGroupsMiddlewareShapesTheServersOwnRefusalsOnItsRoutes() async throws {
        var router = Router()
        router.group(middleware: [TopLevelErrorFieldsMiddleware()]) { segment in
            segment.add("POST", "/v1/batch") { _ in .json(["success": true]) }
        }
        router.add("POST", "/v1/plain") { _ in .json(["success": true]) }
        let responder = Responder(
            router: router, configuration: HTTPServerConfiguration(), metrics: HTTPMetrics(),
            lifecycle: ServerLifecycle())
        for (path, topLevel) in [("/v1/batch", true), ("/v1/plain", false)] {
            // A body over the limit is refused by the server's body layer, inside the group.
            let response = await responder.respond(
                to: HTTPRequest(method: .post, path: path), match: router.match(method: .post, path: path),
                bodyTooLarge: true, startedAt: 0)
            #expect(response.status == 413)
            #expect(response.json?["error"]?["code"] == "payload_too_large")
            #expect((response.json?["code"] == "payload_too_large") == topLevel)
            #expect((response.json?["message"]?.stringValue != nil) == topLevel)
        }
    }

    @Test func errorDetailsGoBesideTheErrorObject() throws {
        var error = HTTPError(.invalidRequest, "one envelope per device", details: ["missingDevices": [2, 3]])
        error.retryAfterSeconds = 4
        let body = try #require(error.response().json)
        #expect(
            body == [
                "error": ["code": "invalid_request", "message": "one envelope per device"], "missingDevices": [2, 3],
            ])
        #expect(error.response().header("retry-after") == "4")
        #expect(error.withTopLevelFields().response().json?["code"] == "invalid_request")
    }
}

extension HTTPResponse {
    /// The body as JSON, or `nil`.
    var json: JSONValue? { try? JSONParser.parse(body) }
}
