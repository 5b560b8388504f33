import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

/// The messenger's expiry job runs under the server's `run()` on the messenger's clock and
/// stops with the server.
@Suite(.timeLimit(.minutes(1)))
struct ExpiryJobTests {
    @Test(arguments: StoreBackend.allCases) func theExpiryJobDeletesExpiredEnvelopesOnTheMessengersClock(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend) { $0.expiryInterval = .seconds(3_600) }
        defer {
            harness.stop()
            harness.removeFiles()
        }
        let alice = try await harness.register()
        let bob = try await harness.register()
        #expect(
            try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)]).status == 200)

        var http = HTTPServerConfiguration()
        http.port = 0
        let server = HTTPServer(configuration: http, router: Router(), jobs: harness.messenger.backgroundJobs)
        let running = Task { try await server.run() }
        // The run at start finds the envelope fresh; the first one past its 30 days deletes it.
        // Two sleepers: the expiry job and the catch-up poll.
        try await harness.clock.waitForSleepers(2)
        #expect(try harness.store.mailbox(accountId: bob.accountId, deviceId: 1, afterId: 0, limit: 10).count == 1)
        harness.clock.advance(by: .seconds(31 * 86_400))
        try await harness.clock.waitForSleepers(2)
        #expect(try harness.store.mailbox(accountId: bob.accountId, deviceId: 1, afterId: 0, limit: 10).isEmpty)
        await server.shutdown(deadline: .zero)
        try await running.value
        #expect(harness.clock.sleeperCount == 0)
    }
}
