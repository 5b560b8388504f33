import CourierCore
import CourierTesting
import Foundation
@testable import Sync
import Testing

/// Sync on two `courier-server` processes sharing PostgreSQL and NATS.
@Suite(.timeLimit(.minutes(2)))
struct ClusterSyncTests {
    @Test func aPushThroughOneInstanceWakesAPokeLongPollOnTheOther() async throws {
        let cluster = try await TestCluster.start(environment: ["COURIER_SYNC_TOKENS": "t-alice=alice"])
        defer { cluster.stop() }
        let files = (0..<2).map { NSTemporaryDirectory() + "cluster-sync-\($0)-" + UUID().uuidString + ".sqlite" }
        defer { for file in files { try? FileManager.default.removeItem(atPath: file) } }
        let laptop = try SyncClient(
            path: files[0], transport: HTTPSyncTransport(baseURL: cluster.baseURL(0), token: "t-alice"))
        let phone = try SyncClient(
            path: files[1], transport: HTTPSyncTransport(baseURL: cluster.baseURL(1), token: "t-alice"))
        try await phone.sync()
        var changes = phone.changes().makeAsyncIterator()
        let watcher = Task { await phone.watchPokes() }
        defer { watcher.cancel() }
        let id = try await laptop.create("notes", fields: ["title": "written through A"])
        try await laptop.sync()
        // The phone's long-poll on B wakes on A's push and pulls it.
        let change = await changes.next()
        #expect(change == RecordChange(collection: "notes", id: id, deleted: false, origin: .remote))
        #expect(try await phone.checksum() == laptop.checksum())
    }
}
