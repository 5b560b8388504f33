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
}
