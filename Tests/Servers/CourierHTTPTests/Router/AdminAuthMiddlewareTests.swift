import CourierCore
import CourierTesting
import Testing

@testable import CourierHTTP

/// The one admin guard every server module mounts on its admin group.
@Suite(.timeLimit(.minutes(1)))
struct AdminAuthMiddlewareTests {
    static let token = "admin-token-0123456789abcdef"

    func answer(token configured: String?, authorization: String?, path: String = "/admin/stats") async
        -> HTTPResponse
    {
        await Self.responder(AdminAuthMiddleware(token: configured)).answer(authorization: authorization, path: path)
    }

    /// A router with a public route and an admin group behind `guard`.
    static func responder(_ guard: AdminAuthMiddleware) -> Answering {
        var router = Router()
        router.add("GET", "/public") { _ in .json(["public": true]) }
        router.group(middleware: [`guard`]) { admin in
            admin.add("GET", "/admin/stats") { _ in .json(["secret": 42]) }
        }
        return Answering(
            router: router,
            responder: Responder(
                router: router, configuration: HTTPServerConfiguration(), metrics: HTTPMetrics(),
                lifecycle: ServerLifecycle()))
    }

    /// Answers requests in process, as the engine would.
    struct Answering {
        let router: Router
        let responder: Responder

        func answer(authorization: String?, path: String = "/admin/stats", from client: String = "127.0.0.1") async
            -> HTTPResponse
        {
            let headers = authorization.map { ["authorization": $0] } ?? [:]
            return await responder.respond(
                to: HTTPRequest(method: .get, path: path, headers: headers, remoteAddress: client),
                match: router.match(method: .get, path: path), bodyTooLarge: false, startedAt: 0)
        }
    }

    /// Wrong tokens are guesses: past the budget the client's network gets 429, even with the
    /// right token, until it refills; other clients are not affected, and a request without a
    /// token spends nothing.
    @Test func wrongTokensPastTheBudgetAre429ForThatClientNetworkOnly() async {
        let clock = ManualClock()
        let admin = Self.responder(
            AdminAuthMiddleware(token: Self.token, failedAttempts: RateLimit(perSecond: 0.1, burst: 3), clock: clock))
        for _ in 0..<5 { #expect(await admin.answer(authorization: nil).status == 403) }
        for _ in 0..<3 { #expect(await admin.answer(authorization: "Bearer guess").status == 403) }
        let limited = await admin.answer(authorization: "Bearer \(Self.token)")
        #expect(limited.status == 429)
        #expect(limited.json?["error"]?["code"] == "rate_limited")
        #expect(limited.headers.first { $0.0 == "Retry-After" }?.1 == "10")
        // The same /64 is the same client; another network is not.
        #expect(await admin.answer(authorization: "Bearer \(Self.token)", from: "2001:db8::1").status == 200)
        #expect(await admin.answer(authorization: "Bearer guess", from: "2001:db8::1").status == 403)
        #expect(await admin.answer(authorization: "Bearer \(Self.token)", from: "2001:db8::2").status == 200)
        clock.advance(by: .seconds(10))
        #expect(await admin.answer(authorization: "Bearer \(Self.token)").status == 200)
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
