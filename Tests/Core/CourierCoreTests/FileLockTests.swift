import CourierCore
import Foundation
import Testing

struct FileLockTests {
    @Test func secondHolderIsRefusedUntilTheFirstReleases() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(Identifier.uuid())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var first: FileLock? = try FileLock(path: path)
        do {
            _ = try FileLock(path: path)
            Issue.record("a second lock should be refused")
        } catch {
            #expect(error.heldByAnotherProcess)
        }
        #expect(first?.path == path)
        first = nil
        #expect((try? FileLock(path: path)) != nil)
    }

    @Test func aWaitingLockIsTakenWhenTheHolderReleases() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(Identifier.uuid())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let holder = Holder(try FileLock(waitingFor: path))
        #expect(throws: FileLock.Failure.self) { try FileLock(path: path) }
        let taken = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if let lock = try? FileLock(waitingFor: path) {
                withExtendedLifetime(lock) { _ = taken.signal() }
            }
        }
        #expect(taken.wait(timeout: .now() + .milliseconds(200)) == .timedOut, "it waits while the lock is held")
        holder.release()
        #expect(taken.wait(timeout: .now() + .seconds(10)) == .success, "and takes it once released")
    }
}

/// Keeps a lock until `release`.
private final class Holder: @unchecked Sendable {
    // @unchecked: `lock` is set in init and cleared once by the test's own thread.
    private var lock: FileLock?
    init(_ lock: FileLock) { self.lock = lock }
    func release() { lock = nil }
}
