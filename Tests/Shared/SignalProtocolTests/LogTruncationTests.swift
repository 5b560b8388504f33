import CourierCore
import CourierTesting
import Foundation
import Testing

@testable import SignalProtocol

/// The write-ahead log of a SQLite Signal store is checkpointed and truncated at most
/// `maximumCommits` commits or `window` after a commit, so superseded records leave it within
/// a bound that `LogTruncationPolicy` names, without a checkpoint per commit.
struct LogTruncationTests {
    static func walSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    static func store(_ directory: TemporaryDirectory, _ policy: LogTruncationPolicy) throws -> SQLiteSignalStore {
        try SQLiteSignalStore(
            path: directory.path("device.sqlite"), keyProvider: InMemoryKeyProvider(), identity: .generate(),
            registrationId: 1, logTruncation: policy)
    }

    @Test func theLogIsTruncatedAtTheCommitLimitAndNotBefore() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory, LogTruncationPolicy(maximumCommits: 8, window: .seconds(3600)))
        let path = directory.path("device.sqlite")
        for id in 1...7 { try store.storePreKey(PreKeyRecord(id: UInt32(id), keyPair: .generate())) }
        #expect(Self.walSize(path) > 0, "seven commits wait in the log")
        try store.storePreKey(PreKeyRecord(id: 8, keyPair: .generate()))
        #expect(Self.walSize(path) == 0, "the eighth commit truncates it")
        try store.flushLog()
        #expect(Self.walSize(path) == 0)
    }

    @Test func anIdleStoreTruncatesItsLogWithinTheWindow() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory, LogTruncationPolicy(maximumCommits: 1_000, window: .milliseconds(20)))
        let path = directory.path("device.sqlite")
        try store.storePreKey(PreKeyRecord(id: 1, keyPair: .generate()))
        // The file's size offers no event to wait on: poll it, on wall-clock time.
        #expect(await poll { Self.walSize(path) == 0 })
        withExtendedLifetime(store) {}
    }

    @Test func everyCommitTruncatesUnderTheStrictPolicy() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory, .everyCommit)
        try store.storePreKey(PreKeyRecord(id: 1, keyPair: .generate()))
        #expect(Self.walSize(directory.path("device.sqlite")) == 0)
    }

    @Test func aPolicyOutsideItsBoundsIsClamped() {
        let policy = LogTruncationPolicy(maximumCommits: 0, window: .seconds(-1))
        #expect(policy.maximumCommits == 1)
        #expect(policy.window == .zero)
    }
}
