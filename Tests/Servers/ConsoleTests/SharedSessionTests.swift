import Console
import CourierCore
import CourierCrypto
import CourierPostgres
import CourierTesting
import Testing

/// Console sessions in PostgreSQL, shared by the instances on one database.
@Suite(.timeLimit(.minutes(2)))
struct SharedSessionTests {
    /// A cookie made by signing in on one server works on another on the same database, and
    /// signing out on the second ends it on the first.
    @Test func aSessionMadeOnOneInstanceWorksOnAnotherAndSigningOutThereEndsItHere() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let first = try ConsoleHarness(sessions: try await offPool { try PostgresConsoleSessionStore(url: url) })
        defer { first.stop() }
        let second = try ConsoleHarness(sessions: try await offPool { try PostgresConsoleSessionStore(url: url) })
        defer { second.stop() }
        let session = try await first.signIn()

        let there = try await second.request("GET", "/console/api/session", headers: session.readHeaders)
        #expect(there.status == 200)
        #expect(there.json?["csrfToken"]?.stringValue == session.csrfToken)
        let admin = try await second.request(
            "GET", "/v1/events?writeKey=\(ConsoleHarness.writeKey)", headers: session.readHeaders)
        #expect(admin.status == 200)

        let out = try await second.request("DELETE", "/console/api/session", headers: session.writeHeaders)
        #expect(out.status == 200)
        let here = try await first.request("GET", "/console/api/session", headers: session.readHeaders)
        #expect(here.status == 401)
        #expect(here.json?["error"]?["code"]?.stringValue == "signed_out")
        let refused = try await first.request(
            "GET", "/v1/events?writeKey=\(ConsoleHarness.writeKey)", headers: session.readHeaders)
        #expect(refused.status == 401)
    }

    /// The table holds the SHA-256 of the session id, never the cookie's value.
    @Test func theTableHoldsOnlyTheDigestOfTheSessionId() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let harness = try ConsoleHarness(
            listening: false, sessions: try await offPool { try PostgresConsoleSessionStore(url: url) })
        defer { harness.stop() }
        let session = try await harness.signIn()
        let id = String(session.cookie.dropFirst(Console.cookieName.count + 1))
        let rows = try await offPool {
            try PostgresConnection(url: url).query("SELECT id_digest, csrf_token FROM console_sessions") { row in
                (row.bytes(0), row.text(1))
            }
        }
        #expect(rows.count == 1)
        #expect(rows.first?.0 == Digest.sha256(Array(id.utf8)))
        #expect(rows.first?.1 == session.csrfToken)
    }
}
