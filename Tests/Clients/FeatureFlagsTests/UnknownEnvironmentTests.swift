import CourierCore
import CourierHTTP
import CourierTesting
@testable import FlagServer
import Foundation
import Synchronization
import Testing

/// Requests for an environment key that does not exist (apps still polling a deleted one, a typo
/// shipped in a build): answered `404` from memory after one store read per key per lifetime,
/// bounded in keys, and forgotten as soon as the environment is created here or elsewhere.
@Suite(.timeLimit(.minutes(2)))
struct UnknownEnvironmentTests {
    /// A real store that counts the reads of one environment.
    final class CountingStore: FlagStore {
        let inner: any FlagStore
        let reads = Atomic<Int>(0)
        let versionReads = Atomic<Int>(0)

        init(_ inner: any FlagStore) { self.inner = inner }

        func environment(_ key: String) throws -> StoredEnvironment? {
            reads.add(1, ordering: .relaxed)
            return try inner.environment(key)
        }
        func edit(
            _ environment: String, atMilliseconds: Int64, making make: (StoredEnvironment) throws -> FlagChange
        ) throws -> (version: Int64, change: FlagChange) {
            try inner.edit(environment, atMilliseconds: atMilliseconds, making: make)
        }
        func audit(environment: String, limit: Int) throws -> [FlagAuditEntry] {
            try inner.audit(environment: environment, limit: limit)
        }
        func versions() throws -> [String: Int64] {
            versionReads.add(1, ordering: .relaxed)
            return try inner.versions()
        }
    }

    static func get(_ harness: FlagHarness, _ environment: String) async throws -> HTTPResponse {
        try await harness.routes.execute("GET", "/v1/flags/\(environment)")
    }

    @Test(arguments: StoreBackend.allCases)
    func aKeyPolledOverAndOverCostsOneStoreReadPerLifetime(backend: StoreBackend) async throws {
        let store = CountingStore(try await FlagHarness.makeStore(backend))
        let harness = try await FlagHarness(backend: backend, listening: false, store: store)
        for _ in 0..<50 {
            let answer = try await Self.get(harness, "deleted")
            #expect(answer.status == 404)
            #expect(answer.jsonBody?["error"]?["code"] == "not_found")
        }
        let evaluated = try await harness.routes.execute("POST", "/v1/flags/deleted/evaluate", json: [:])
        #expect(evaluated.status == 404)
        #expect(store.reads.load(ordering: .relaxed) == 1)
        harness.clock.advance(by: FlagServerConfiguration().unknownEnvironmentLifetime)
        #expect(try await Self.get(harness, "deleted").status == 404)
        #expect(store.reads.load(ordering: .relaxed) == 2)
    }

    @Test func anEnvironmentCreatedAfterItsKeyWasAskedForIsServedAtOnce() async throws {
        let harness = try await FlagHarness(listening: false)
        #expect(try await Self.get(harness, "staging").status == 404)
        try await harness.put(checkoutDefinition(), environment: "staging")
        #expect(try await Self.get(harness, "staging").status == 200)
    }

    @Test(arguments: StoreBackend.allCases)
    func anEnvironmentCreatedOnAnotherInstanceIsServedAtOnce(backend: StoreBackend) async throws {
        let (a, b) = try await FlagWakeUpTests.pair(backend)
        #expect(try await Self.get(b, "staging").status == 404)
        try await a.put(checkoutDefinition(), environment: "staging")
        #expect(try await Self.get(b, "staging").jsonBody?["version"] == 1)
    }

    /// With the other instance's wake-up lost, the version poll finds the new environment.
    @Test func anEnvironmentWhoseWakeUpWasLostIsServedAfterTheVersionPoll() async throws {
        let bus = LossyMessageBus()
        let (a, b) = try await FlagWakeUpTests.pair(.sqlite, bus: bus)
        #expect(try await Self.get(b, "staging").status == 404)
        try await a.put(checkoutDefinition(), environment: "staging")
        #expect(bus.dropped.load(ordering: .relaxed) >= 1)
        #expect(try await Self.get(b, "staging").status == 404)
        #expect(try b.service.forgetChangedEnvironments() == 0)
        #expect(try await Self.get(b, "staging").jsonBody?["version"] == 1)
    }

    /// A remembered key counts for the version poll only while it is current: once expired it
    /// is dropped, and the poll stops reading the store for it.
    @Test func anExpiredUnknownKeyNoLongerKeepsTheVersionPollReading() async throws {
        let store = CountingStore(try SQLiteFlagStore(path: ":memory:"))
        let harness = try await FlagHarness(listening: false, store: store)
        #expect(try await Self.get(harness, "deleted").status == 404)
        try harness.service.forgetChangedEnvironments()
        #expect(store.versionReads.load(ordering: .relaxed) == 1)
        harness.clock.advance(by: FlagServerConfiguration().unknownEnvironmentLifetime)
        try harness.service.forgetChangedEnvironments()
        try harness.service.forgetChangedEnvironments()
        #expect(store.versionReads.load(ordering: .relaxed) == 1)
        #expect(harness.service.served.unknownCount == 0)
    }

    /// Keys anyone can send, as many as they like: the memory of them is bounded, and the
    /// environments that exist stay served from memory.
    @Test func manyUnknownKeysKeepTheMemoryBoundedAndDoNotPushARealEnvironmentOut() async throws {
        let store = CountingStore(try SQLiteFlagStore(path: ":memory:"))
        let harness = try await FlagHarness(listening: false, store: store)
        try await harness.put(checkoutDefinition())
        #expect(try await Self.get(harness, FlagHarness.environment).status == 200)
        let readsBefore = store.reads.load(ordering: .relaxed)
        for number in 0..<(ServedCache.maximumUnknown + 500) {
            #expect(try await Self.get(harness, "random-\(number)").status == 404)
        }
        #expect(harness.service.served.unknownCount <= ServedCache.maximumUnknown)
        #expect(try await Self.get(harness, FlagHarness.environment).status == 200)
        #expect(store.reads.load(ordering: .relaxed) == readsBefore + ServedCache.maximumUnknown + 500)
    }
}
