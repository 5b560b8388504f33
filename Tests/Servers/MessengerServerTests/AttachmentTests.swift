import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

@Suite struct AttachmentTests {
    @Test(arguments: StoreBackend.allCases) func aResumableUploadInPiecesDownloadsWhole(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let alice = try await harness.register()
        let blob = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let created = try await harness.request("POST", "/v1/attachments", as: alice, json: ["length": 10_000])
        let id = try #require(created.json?["id"]?.stringValue)
        #expect(id.count == 64)
        #expect(try await harness.request("GET", "/v1/attachments/\(id)").status == 404)  // not complete

        let first = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes 0-3999/10000"],
            body: Array(blob[0..<4_000]))
        #expect(first.status == 308)
        #expect(first.header("range") == "bytes=0-3999")
        // The connection dropped here; the client asks where to go on.
        let status = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes */10000"])
        #expect(status.status == 308)
        #expect(status.header("range") == "bytes=0-3999")
        let wrongOffset = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes 5000-9999/10000"],
            body: Array(blob[5_000...]))
        #expect(wrongOffset.status == 409)
        let rest = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes 4000-9999/10000"],
            body: Array(blob[4_000...]))
        #expect(rest.status == 200)
        let download = try await harness.request("GET", "/v1/attachments/\(id)")
        #expect(download.status == 200)
        #expect(download.body == blob)
    }

    @Test(arguments: StoreBackend.allCases) func limitsUnknownIdsAndExpiry(backend: StoreBackend) async throws {
        let harness = try await MessengerHarness(backend: backend) { $0.maximumAttachmentBytes = 1_000 }
        defer { harness.stop() }
        let alice = try await harness.register()
        #expect(try await harness.request("POST", "/v1/attachments", as: alice, json: ["length": 1_001]).status == 413)
        #expect(try await harness.request("POST", "/v1/attachments", json: ["length": 10]).status == 401)
        let unknown = String(repeating: "a", count: 64)
        #expect(try await harness.request("GET", "/v1/attachments/\(unknown)").status == 404)
        #expect(try await harness.request("GET", "/v1/attachments/..%2Fmessenger.sqlite").status == 404)
        let created = try await harness.request("POST", "/v1/attachments", as: alice, json: ["length": 3])
        let id = try #require(created.json?["id"]?.stringValue)
        let mismatched = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes 0-2/3"], body: [1, 2])
        #expect(mismatched.status == 400)
        #expect(
            try await harness.request(
                "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes 0-2/3"], body: [1, 2, 3]
            ).status == 200)
        harness.clock.advance(by: .seconds(31 * 86_400))
        #expect(try harness.messenger.expire().attachments == 1)
        #expect(try await harness.request("GET", "/v1/attachments/\(id)").status == 404)
        #expect(!FileManager.default.fileExists(atPath: harness.directory + "/attachments/\(id)"))
    }

    /// Two instances on one PostgreSQL database: an upload begun on one resumes on the other, and
    /// either serves the download.
    @Test func anUploadBegunOnOneInstanceResumesOnAnother() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let first = try await MessengerHarness(backend: .postgres, postgresURL: url)
        let second = try await MessengerHarness(backend: .postgres, postgresURL: url)
        defer {
            first.stop()
            second.stop()
        }
        let alice = try await first.register()
        let blob = (0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let created = try await first.request("POST", "/v1/attachments", as: alice, json: ["length": 3_000])
        let id = try #require(created.json?["id"]?.stringValue)
        let head = try await first.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes 0-999/3000"],
            body: Array(blob[0..<1_000]))
        #expect(head.status == 308)
        let asked = try await second.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes */3000"])
        #expect(asked.header("range") == "bytes=0-999")
        let rest = try await second.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes 1000-2999/3000"],
            body: Array(blob[1_000...]))
        #expect(rest.status == 200)
        #expect(try await first.request("GET", "/v1/attachments/\(id)").body == blob)
        #expect(try await second.request("GET", "/v1/attachments/\(id)").body == blob)
    }
}
