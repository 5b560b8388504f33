import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

@Suite(.timeLimit(.minutes(1))) struct AttachmentOwnershipTests {
    @Test(arguments: StoreBackend.allCases) func anotherAccountCanNeitherWriteIntoNorProbeAnUpload(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let alice = try await harness.register()
        let mallory = try await harness.register(name: "mallory")
        let blob = (0..<100).map { UInt8($0) }
        let created = try await harness.request("POST", "/v1/attachments", as: alice, json: ["length": 100])
        let id = try #require(created.json?["id"]?.stringValue)
        let first = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes 0-39/100"],
            body: Array(blob[0..<40]))
        #expect(first.status == 308)

        // Another account, holding the id: its bytes are never written, and it learns nothing.
        let foreign = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: mallory, headers: ["Content-Range": "bytes 40-99/100"],
            body: [UInt8](repeating: 0xEE, count: 60))
        #expect(foreign.status == 404)
        let probe = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: mallory, headers: ["Content-Range": "bytes */100"])
        #expect(probe.status == 404)
        #expect(probe.header("range") == nil)
        let head = try await harness.request("HEAD", "/v1/attachments/\(id)", as: mallory)
        #expect(head.status == 404)

        // The owner still resumes at byte 40 and its download holds only its own bytes.
        let status = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes */100"])
        #expect(status.status == 308)
        #expect(status.header("range") == "bytes=0-39")
        let rest = try await harness.request(
            "PUT", "/v1/attachments/\(id)", as: alice, headers: ["Content-Range": "bytes 40-99/100"],
            body: Array(blob[40...]))
        #expect(rest.status == 200)
        #expect(try await harness.request("GET", "/v1/attachments/\(id)").body == blob)
    }
}
