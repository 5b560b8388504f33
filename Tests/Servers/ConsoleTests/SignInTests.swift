import Console
import CourierCore
import CourierHTTP
import CourierTesting
import Testing

@Suite(.timeLimit(.minutes(2)))
struct SignInTests {
    @Test func signInSetsAnHttpOnlyStrictCookieAndGivesTheCSRFToken() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let answer = try await harness.request(
            "POST", "/console/api/session", json: ["token": .string(ConsoleHarness.adminToken)])
        #expect(answer.status == 200)
        let cookie = try #require(answer.header("set-cookie"))
        #expect(cookie.hasPrefix("\(Console.cookieName)="))
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Strict"))
        #expect(cookie.contains("Max-Age=28800"))
        #expect(!cookie.contains("Secure"))
        #expect(answer.json?["csrfToken"]?.stringValue?.count == 64)
        #expect(answer.json?["expiresAt"]?.stringValue == "2026-11-29T16:00:00.000Z")
    }

    @Test func behindTLSTheCookieIsSecure() async throws {
        let harness = try ConsoleHarness(listening: false) { $0.secureCookies = true }
        defer { harness.stop() }
        let answer = try await harness.request(
            "POST", "/console/api/session", json: ["token": .string(ConsoleHarness.adminToken)])
        #expect(answer.header("set-cookie")?.hasSuffix("; Secure") == true)
    }

    @Test func behindAProxyThatEndsTLSTheCookieIsSecure() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let answer = try await harness.request(
            "POST", "/console/api/session", json: ["token": .string(ConsoleHarness.adminToken)],
            headers: ["X-Forwarded-Proto": "https"])
        #expect(answer.header("set-cookie")?.hasSuffix("; Secure") == true)
    }

    @Test func aWrongTokenIsRefusedWithoutWWWAuthenticate() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let answer = try await harness.request("POST", "/console/api/session", json: ["token": "guess"])
        #expect(answer.status == 401)
        #expect(answer.json?["error"]?["code"]?.stringValue == "invalid_token")
        #expect(answer.header("www-authenticate") == nil)
        #expect(answer.header("set-cookie") == nil)
    }

    @Test func signInMustBeJSONSoNoCrossSiteFormCanPostIt() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let answer = try await harness.request(
            "POST", "/console/api/session", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Array("token=\(ConsoleHarness.adminToken)".utf8))
        #expect(answer.status == 415)
        #expect(answer.header("set-cookie") == nil)
    }

    @Test func wrongTokensAreRateLimitedPerClientUntilTheClockMovesOn() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        for _ in 0..<5 {
            let answer = try await harness.request("POST", "/console/api/session", json: ["token": "guess"])
            #expect(answer.status == 401)
        }
        let limited = try await harness.request(
            "POST", "/console/api/session", json: ["token": .string(ConsoleHarness.adminToken)])
        #expect(limited.status == 429)
        #expect(limited.header("retry-after") == "10")
        harness.clock.advance(by: .seconds(10))
        let allowed = try await harness.request(
            "POST", "/console/api/session", json: ["token": .string(ConsoleHarness.adminToken)])
        #expect(allowed.status == 200)
    }

    /// An IPv6 client is its /64: guesses from five addresses of one network spend one budget,
    /// and a neighbouring network keeps its own.
    @Test func wrongTokensFromOneIPv6NetworkShareItsBudget() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let routes = RouterTestClient(server: harness.server)
        func signIn(_ token: String, from client: String) async throws -> Int {
            try await routes.execute(
                "POST", "/console/api/session", headers: ["Content-Type": "application/json", "Host": "127.0.0.1"],
                body: JSONWriter.encode(["token": .string(token)]), remoteAddress: client
            ).status.code
        }
        for host in 1...5 { #expect(try await signIn("guess", from: "2001:db8:5:6::\(host)") == 401) }
        #expect(try await signIn(ConsoleHarness.adminToken, from: "2001:db8:5:6:ffff::1") == 429)
        #expect(try await signIn(ConsoleHarness.adminToken, from: "2001:db8:5:7::1") == 200)
    }

    /// Someone guessing the admin token from the operator's network spends that network's
    /// budget for bearer callers, the right token included, but not a signed-in console session's
    /// way to the same admin routes: the session was earned through the sign-in's own budget.
    @Test func guessesAtTheAdminTokenDoNotLockOutASignedInSession() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        for _ in 0..<Int(AdminAuthMiddleware.defaultFailedAttempts.burst) {
            #expect(
                try await harness.request("GET", "/v1/flags", headers: ["Authorization": "Bearer guess"]).status == 403)
        }
        let bearer = try await harness.request(
            "GET", "/v1/flags", headers: ["Authorization": "Bearer \(ConsoleHarness.adminToken)"])
        #expect(bearer.status == 429)
        #expect(try await harness.request("GET", "/v1/flags", headers: session.readHeaders).status == 200)
    }

    @Test(arguments: SessionBackend.allCases)
    func aSessionExpiresWithTheClock(backend: SessionBackend) async throws {
        let harness = try ConsoleHarness(listening: false, sessions: try await backend.makeStore()) {
            $0.sessionLifetime = .seconds(60)
        }
        defer { harness.stop() }
        let session = try await harness.signIn()
        let live = try await harness.request("GET", "/console/api/session", headers: session.readHeaders)
        #expect(live.status == 200)
        #expect(live.json?["csrfToken"]?.stringValue == session.csrfToken)
        harness.clock.advance(by: .seconds(60))
        let ended = try await harness.request("GET", "/console/api/session", headers: session.readHeaders)
        #expect(ended.status == 401)
        #expect(ended.json?["error"]?["code"]?.stringValue == "signed_out")
        let admin = try await harness.request(
            "GET", "/v1/events?writeKey=\(ConsoleHarness.writeKey)", headers: session.readHeaders)
        #expect(admin.status == 401)
    }

    @Test(arguments: SessionBackend.allCases)
    func signOutNeedsTheCSRFTokenAndEndsTheSession(backend: SessionBackend) async throws {
        let harness = try ConsoleHarness(listening: false, sessions: try await backend.makeStore())
        defer { harness.stop() }
        let session = try await harness.signIn()
        let forged = try await harness.request("DELETE", "/console/api/session", headers: session.readHeaders)
        #expect(forged.status == 403)
        #expect(forged.json?["error"]?["code"]?.stringValue == "csrf_refused")
        let out = try await harness.request("DELETE", "/console/api/session", headers: session.writeHeaders)
        #expect(out.status == 200)
        #expect(out.header("set-cookie")?.contains("Max-Age=0") == true)
        let after = try await harness.request("GET", "/console/api/session", headers: session.readHeaders)
        #expect(after.status == 401)
    }

    @Test func withoutAnAdminTokenTheConsoleIsDisabled() async throws {
        let harness = try ConsoleHarness(listening: false) { $0.adminToken = nil }
        defer { harness.stop() }
        let answer = try await harness.request("POST", "/console/api/session", json: ["token": ""])
        #expect(answer.status == 403)
        #expect(answer.json?["error"]?["code"]?.stringValue == "console_disabled")
    }
}
