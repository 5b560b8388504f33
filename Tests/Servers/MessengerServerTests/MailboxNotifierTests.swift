import CourierTesting
import Foundation
import MessengerServer
import Synchronization
import Testing

@Suite struct MailboxNotifierTests {
    final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The local notifier once kept its subscriber as a closure in a `Mutex`; reading it with
    /// `withLock { $0 }` wrote it back wrapped in one more reabstraction thunk each time, so the
    /// n-th notification ran n nested thunks (quadratic time; routing fell to a quarter). On a
    /// thread with a 256 KiB stack that overflowed within a few thousand notifications.
    @Test func manyNotificationsStayAsCheapAsTheFirst() async {
        let notifier = LocalMailboxNotifier()
        let count = Count()
        notifier.subscribe { _ in count.value.add(1, ordering: .relaxed) }
        let device = AuthenticatedDevice(accountId: "account", deviceId: 1)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for _ in 0..<20_000 { notifier.mailboxChanged(device) }
            done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        #expect(await waitOffPool(done))
        #expect(count.value.load(ordering: .relaxed) == 20_000)
    }
}
