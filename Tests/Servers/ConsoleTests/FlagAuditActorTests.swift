import CourierCore
import Testing

/// The flag audit says who made each change: `console` for a console session, `admin-api` for the
/// admin token, and a bearer caller cannot pass itself off as the console.
@Suite(.timeLimit(.minutes(1)))
struct FlagAuditActorTests {
    @Test func theAuditNamesTheConsoleSessionAndTheAdminTokenApart() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        let path = "/v1/flags/production/definitions/new-checkout"
        let bearer = ["Authorization": "Bearer \(ConsoleHarness.adminToken)"]
        let set = try await harness.request(
            "PUT", path, json: ["type": "bool", "value": false],
            headers: bearer.merging(["X-Courier-Actor": "console"]) { $1 })
        #expect(set.status == 200)
        let killed = try await harness.request("POST", path + "/kill", headers: session.writeHeaders)
        #expect(killed.status == 200)
        let audit = try await harness.request("GET", "/v1/flags/production/audit", headers: bearer)
        let entries = audit.json?["entries"]?.arrayValue ?? []
        #expect(entries.map { $0["action"]?.stringValue } == ["kill", "set"])
        #expect(entries.map { $0["actor"]?.stringValue } == ["console", "admin-api"])
        #expect(entries.first?["before"]?["enabled"] == nil)
        #expect(entries.first?["after"]?["enabled"]?.boolValue == false)
    }
}
