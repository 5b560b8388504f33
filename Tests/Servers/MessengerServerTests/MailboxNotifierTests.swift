import CourierCore
import CourierTesting
import Foundation
import MessengerServer
import Synchronization
import Testing

@Suite struct MailboxNotifierTests {
    final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The local notifier before the bus once kept its subscriber as a closure in a `Mutex`;
    /// reading it with `withLock { $0 }` wrote it back wrapped in one more reabstraction thunk
    /// each time, so the n-th notification ran n nested thunks (quadratic time; routing fell to a
    /// quarter). On a thread with a 256 KiB stack that overflowed within a few thousand
    /// notifications. The bus that carries the wake-ups now must not do the same.
    @Test func manyNotificationsStayAsCheapAsTheFirst() async throws {
        let bus = LocalMessageBus()
        let count = Count()
        let subscription = try await bus.subscribe("mbx.account.1") { _ in count.value.add(1, ordering: .relaxed) }
        defer { subscription.cancel() }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for _ in 0..<20_000 { bus.publish("mbx.account.1", []) }
            done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        #expect(await waitOffPool(done))
        #expect(count.value.load(ordering: .relaxed) == 20_000)
    }
}
