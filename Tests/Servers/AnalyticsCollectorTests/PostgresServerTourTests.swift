import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// `courier-server --database postgres://…` as an operator runs it: a tracked event, an account,
/// a flag and a console session all live in PostgreSQL, survive a restart, and leave nothing in
/// the data directory but its lock file.
@Suite(.timeLimit(.minutes(3)))
struct PostgresServerTourTests {
    static let admin = "tour-admin-token-0123456789"

    func start(_ server: String, data: URL, database: String) async throws -> (ChildProcess, String) {
        let process = try ChildProcess(
            server,
            ["--port", "0", "--data-dir", data.path, "--write-key", "tour-key", "--quiet", "--database", database],
            environment: ["COURIER_ADMIN_TOKEN": Self.admin], output: .pipe, errorOutput: .discard)
        let stdout = process.output!
        let line: String = await runOffPool {
            var text = ""
            while !text.contains("\n") {
                let chunk = stdout.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        let range = try #require(line.range(of: "http://127.0.0.1:"), "courier-server printed no address: \(line)")
        return (process, "http://127.0.0.1:" + line[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func everyServersStateLivesInPostgreSQLAcrossARestart() async throws {
        let server = try #require(ServerProcessTests.serverExecutable, "build courier-server first (swift build)")
        let data = try ServerProcessTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await TestPostgres.shared.makeDatabase()
        let client = HTTPClient(timeout: .seconds(30))
        let bearer = ["Authorization": "Bearer \(Self.admin)"]

        let (first, base) = try await start(server, data: data, database: database)
        let tracked = try await client.sendJSON(
            "POST", base + "/v1/batch",
            ["batch": [["type": "track", "event": "Signed Up", "userId": "u1", "messageId": "tour-1"]]],
            headers: ["Authorization": "Basic " + Base64.encode(Array("tour-key:".utf8))])
        #expect(tracked.status == 200)
        let secret = Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
        let account = try await client.sendJSON(
            "POST", base + "/v1/accounts", ["registrationId": 7, "name": "phone", "password": .string(secret)])
        #expect(account.status == 200)
        let flag = try await client.sendJSON(
            "PUT", base + "/v1/flags/production/definitions/tour", ["type": "bool", "value": true, "owner": "tour"],
            headers: bearer)
        #expect(flag.status == 200)
        let signedIn = try await client.sendJSON("POST", base + "/console/api/session", ["token": .string(Self.admin)])
        let cookie = try #require(signedIn.header("set-cookie")?.split(separator: ";").first.map(String.init))
        first.terminate()
        _ = await runOffPool { first.wait() }

        let (second, again) = try await start(server, data: data, database: database)
        defer {
            second.terminate()
            _ = second.wait()
        }
        let events = try await client.send("GET", again + "/v1/events?writeKey=tour-key", headers: bearer)
        #expect(events.json?["events"]?.arrayValue?.count == 1)
        let accountId = try #require(account.json?["accountId"]?.stringValue)
        let auth = "Basic " + Base64.encode(Array("\(accountId).1:\(secret)".utf8))
        #expect(try await client.send("GET", again + "/v1/devices", headers: ["Authorization": auth]).status == 200)
        let served = try await client.send("GET", again + "/v1/flags/production/")
        #expect(served.json?["flags"]?.arrayValue?.compactMap { $0["key"]?.stringValue } == ["tour"])
        #expect(try await client.send("GET", again + "/console/api/session", headers: ["Cookie": cookie]).status == 200)
        let files = try FileManager.default.contentsOfDirectory(atPath: data.path)
        #expect(files == ["courier.lock"])
    }
}
