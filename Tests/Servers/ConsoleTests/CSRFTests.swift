import CourierCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct CSRFTests {
    @Test func aSettingsChangeWithTheCookieButNoCSRFTokenIsRefusedAndChangesNothing() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        let path = "/v1/projects/\(ConsoleHarness.writeKey)/settings"
        for headers in [session.readHeaders, session.readHeaders.merging(["X-CSRF-Token": "0000"]) { $1 }] {
            let refused = try await harness.request("PUT", path, json: ["enabled": false], headers: headers)
            #expect(refused.status == 403)
            #expect(refused.json?["error"]?["code"]?.stringValue == "csrf_refused")
        }
        let settings = try await harness.request("GET", path)
        #expect(settings.json?["enabled"]?.boolValue == true)
        let accepted = try await harness.request("PUT", path, json: ["enabled": false], headers: session.writeHeaders)
        #expect(accepted.status == 200)
        #expect(accepted.json?["enabled"]?.boolValue == false)
    }

    @Test func aFlagEditAndAKillNeedTheCSRFTokenToo() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        let flag: JSONValue = ["type": "bool", "value": false, "owner": "checkout"]
        let path = "/v1/flags/production/definitions/new-checkout"
        let refused = try await harness.request("PUT", path, json: flag, headers: session.readHeaders)
        #expect(refused.status == 403)
        let stored = try await harness.request("PUT", path, json: flag, headers: session.writeHeaders)
        #expect(stored.status == 200)
        let killRefused = try await harness.request("POST", path + "/kill", headers: session.readHeaders)
        #expect(killRefused.status == 403)
        let killed = try await harness.request("POST", path + "/kill", headers: session.writeHeaders)
        #expect(killed.json?["flag"]?["enabled"]?.boolValue == false)
    }

    @Test func readsWithTheCookieNeedNoCSRFToken() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        let answer = try await harness.request(
            "GET", "/v1/events?writeKey=\(ConsoleHarness.writeKey)", headers: session.readHeaders)
        #expect(answer.status == 200)
    }

    @Test func aForgedCookieGetsNoAdminAccess() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let answer = try await harness.request(
            "GET", "/v1/events?writeKey=\(ConsoleHarness.writeKey)",
            headers: ["Cookie": "courier_console=\(String(repeating: "a", count: 64))"])
        #expect(answer.status == 401)
        let noCookie = try await harness.request("GET", "/v1/events?writeKey=\(ConsoleHarness.writeKey)")
        #expect(noCookie.status == 403)
    }

    @Test func publicIngestIsNotTouchedByTheConsoleCookie() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        let answer = try await harness.request(
            "POST", "/v1/batch",
            json: [
                "writeKey": .string(ConsoleHarness.writeKey),
                "batch": [["type": "track", "event": "Opened", "userId": "u1", "messageId": "m1"]],
            ], headers: session.readHeaders)
        #expect(answer.status == 200)
    }
}
