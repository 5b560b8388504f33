import Console
import CourierHTTP
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

    /// Wrong tokens tried on one instance spend the client's sign-in attempts on the other too,
    /// and the bucket refills by the clock as on one instance.
    @Test func failedSignInsOnOneInstanceCountOnAnother() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let first = try ConsoleHarness(
            listening: false, sessions: try await offPool { try PostgresConsoleSessionStore(url: url) })
        defer { first.stop() }
        let second = try ConsoleHarness(
            listening: false, sessions: try await offPool { try PostgresConsoleSessionStore(url: url) })
        defer { second.stop() }
        for _ in 0..<5 {
            let answer = try await first.request("POST", "/console/api/session", json: ["token": "guess"])
            #expect(answer.status == 401)
        }
        let limited = try await second.request(
            "POST", "/console/api/session", json: ["token": .string(ConsoleHarness.adminToken)])
        #expect(limited.status == 429)
        #expect(limited.header("retry-after") == "10")
        second.clock.advance(by: .seconds(10))
        let allowed = try await second.request(
            "POST", "/console/api/session", json: ["token": .string(ConsoleHarness.adminToken)])
        #expect(allowed.status == 200)
        let rows = try await offPool {
            try PostgresConnection(url: url).query("SELECT key_digest FROM console_sign_in_limits") { $0.bytes(0) }
        }
        #expect(rows == [Digest.sha256(Array("127.0.0.1".utf8))])
    }

    /// Buckets idle long enough to be full again are deleted by later attempts: the table holds
    /// only clients seen within one refill.
    @Test func idleSignInBucketsAreDeleted() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let store = try await offPool { try PostgresConsoleSessionStore(url: url) }
        let limit = RateLimit(perSecond: 1, burst: 2)
        for client in 0..<10 {
            let decision = try await store.takeSignInAttempt(
                keyDigest: Digest.sha256(Array("client-\(client)".utf8)), limit: limit, now: 1_000)
            #expect(decision == .allowed)
        }
        let latest = Digest.sha256(Array("client-late".utf8))
        _ = try await store.takeSignInAttempt(keyDigest: latest, limit: limit, now: 3_001)
        let rows = try await offPool {
            try PostgresConnection(url: url).query("SELECT key_digest FROM console_sign_in_limits") { $0.bytes(0) }
        }
        #expect(rows == [latest])
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
