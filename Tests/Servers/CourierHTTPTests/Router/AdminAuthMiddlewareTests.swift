import CourierCore
import Testing

@testable import CourierHTTP

/// The one admin guard every server module mounts on its admin group.
@Suite(.timeLimit(.minutes(1)))
struct AdminAuthMiddlewareTests {
    static let token = "admin-token-0123456789abcdef"

    func answer(token configured: String?, authorization: String?, path: String = "/admin/stats") async
        -> HTTPResponse
    {
        var router = Router()
        router.add("GET", "/public") { _ in .json(["public": true]) }
        router.group(middleware: [AdminAuthMiddleware(token: configured)]) { admin in
            admin.add("GET", "/admin/stats") { _ in .json(["secret": 42]) }
        }
        let responder = Responder(
            router: router, configuration: HTTPServerConfiguration(), metrics: HTTPMetrics(),
            lifecycle: ServerLifecycle())
        let headers = authorization.map { ["authorization": $0] } ?? [:]
        return await responder.respond(
            to: HTTPRequest(method: .get, path: path, headers: headers), match: router.match(method: .get, path: path),
            bodyTooLarge: false, startedAt: 0)
    }

    @Test func theAdminTokenLetsTheRequestThrough() async {
        let response = await answer(token: Self.token, authorization: "Bearer \(Self.token)")
        #expect(response.status == 200)
        #expect(response.json == ["secret": 42])
    }

    @Test(arguments: [nil, "Bearer wrong-token", "Basic \(AdminAuthMiddlewareTests.token)", "Bearer "])
    func aMissingOrWrongTokenIs403(authorization: String?) async {
        let response = await answer(token: Self.token, authorization: authorization)
        #expect(response.status == 403)
        #expect(response.json?["error"]?["code"] == "forbidden")
        #expect(response.json?["error"]?["message"] == "a valid admin token is required (Authorization: Bearer …)")
    }

    @Test func withoutAConfiguredTokenTheAdminAPIIsOff() async {
        let response = await answer(token: nil, authorization: "Bearer \(Self.token)")
        #expect(response.status == 403)
        #expect(response.json?["error"]?["message"] == "the admin API is disabled (no admin token configured)")
    }

    @Test func routesOutsideTheGroupNeedNoToken() async {
        let response = await answer(token: Self.token, authorization: nil, path: "/public")
        #expect(response.json == ["public": true])
    }
}
