import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// Flags on two `courier-server` processes sharing PostgreSQL and NATS.
@Suite(.timeLimit(.minutes(2)))
struct ClusterFlagTests {
    /// The `ETag` instance `index` serves for `production` now.
    static func etag(_ cluster: TestCluster, _ index: Int) async throws -> String? {
        let response = try await HTTPClient().send("GET", cluster.baseURL(index) + "/v1/flags/production")
        return response.headers.first { $0.key.lowercased() == "etag" }?.value
    }

    /// Stores `value` as `new-checkout`'s value through instance `index`.
    static func edit(_ cluster: TestCluster, _ index: Int, value: Bool) async throws {
        let flag: JSONValue = ["type": "bool", "value": .bool(value), "owner": "checkout"]
        let response = try await HTTPClient().send(
            "PUT", cluster.baseURL(index) + "/v1/flags/production/definitions/new-checkout",
            headers: ["Authorization": "Bearer \(cluster.adminToken)", "Content-Type": "application/json"],
            body: JSONWriter.encode(flag))
        try #require(response.status == 200, "\(response.status) \(String(decoding: response.body, as: UTF8.self))")
    }

    @Test func anEditOnOneInstanceIsServedByTheOtherWithinASecondAndWithoutNATSWithinTwo() async throws {
        let cluster = try await TestCluster.start()
        defer { cluster.stop() }
        try await Self.edit(cluster, 0, value: false)
        // B caches what it serves; A's edits must reach it.
        let first = try #require(try await Self.etag(cluster, 1))
        try await Self.edit(cluster, 0, value: true)
        let edited = try #require(try await Self.etag(cluster, 0))
        #expect(edited != first)
        #expect(
            await poll(every: .milliseconds(10), timeout: .seconds(1)) { (try? await Self.etag(cluster, 1)) == edited })

        await cluster.nats.stop()
        try await Self.edit(cluster, 0, value: false)
        let withoutBus = try #require(try await Self.etag(cluster, 0))
        // Through the one-second version poll.
        let served = await poll(every: .milliseconds(10), timeout: .seconds(2)) {
            (try? await Self.etag(cluster, 1)) == withoutBus
        }
        #expect(served)
        try await cluster.nats.start()
    }
}
