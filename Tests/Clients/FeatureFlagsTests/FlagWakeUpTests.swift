import CourierCore
import CourierHTTP
import CourierTesting
import FlagServer
import Foundation
import Testing

/// Two instances of the flag server on one store: an edit on one is served by the other at once
/// through the bus, or after the 1 s version poll when the bus lost the wake-up; both give one
/// ETag for one document.
@Suite(.timeLimit(.minutes(2)))
struct FlagWakeUpTests {
    /// Two instances sharing `backend`'s store and `bus`, each subscribed to the other's edits.
    static func pair(_ backend: StoreBackend, bus: any MessageBus = LocalMessageBus()) async throws -> (
        FlagHarness, FlagHarness
    ) {
        let store = try await FlagHarness.makeStore(backend)
        let a = try await FlagHarness(backend: backend, listening: false, store: store, bus: bus)
        let b = try await FlagHarness(backend: backend, listening: false, store: store, bus: bus)
        try await a.service.subscribeToChanges()
        try await b.service.subscribeToChanges()
        return (a, b)
    }

    static func served(_ harness: FlagHarness) async throws -> HTTPResponse {
        try await harness.routes.execute("GET", "/v1/flags/\(FlagHarness.environment)")
    }

    @Test(arguments: StoreBackend.allCases)
    func editOnOneInstanceIsServedByTheOtherAtOnce(backend: StoreBackend) async throws {
        let (a, b) = try await Self.pair(backend)
        try await a.put(checkoutDefinition())
        let first = try await Self.served(b)
        #expect(first.jsonBody?["version"] == 1)
        try await a.put(checkoutDefinition(value: true))
        let second = try await Self.served(b)
        #expect(second.jsonBody?["version"] == 2)
        #expect(second.jsonBody?["flags"]?.arrayValue?.first?["value"] == true)
        let killed = try await a.routes.execute(
            "POST", "/v1/flags/production/definitions/new-checkout/kill", headers: FlagHarness.admin)
        #expect(killed.status == 200)
        let third = try await Self.served(b)
        #expect(third.jsonBody?["flags"]?.arrayValue?.first?["enabled"] == false)
        let segment: JSONValue = [
            "key": "staff", "conditions": [["attribute": "country", "operator": "in", "values": ["FR"]]],
        ]
        let put = try await a.routes.execute(
            "PUT", "/v1/flags/production/segments/staff", json: segment, headers: FlagHarness.admin)
        #expect(put.status == 200)
        let fourth = try await Self.served(b)
        #expect(fourth.jsonBody?["segments"]?.arrayValue?.first?["key"] == "staff")
        #expect(fourth.jsonBody?["version"] == 4)
    }

    @Test(arguments: StoreBackend.allCases)
    func bothInstancesGiveOneETagForOneDocument(backend: StoreBackend) async throws {
        let (a, b) = try await Self.pair(backend)
        try await a.put(checkoutDefinition())
        let fromA = try await Self.served(a)
        let fromB = try await Self.served(b)
        let etag = try #require(fromA.header("etag"))
        #expect(fromB.header("etag") == etag)
        #expect(fromA.body == fromB.body)
        let revalidated = try await b.routes.execute(
            "GET", "/v1/flags/production", headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304)
    }

    /// A kill on an instance that missed the other's edit (its wake-up lost) keeps that edit: the
    /// definition it turns off is read from the store, not from its stale cache.
    @Test(arguments: StoreBackend.allCases)
    func aKillOnAnInstanceWithAStaleCacheKeepsTheOthersEdit(backend: StoreBackend) async throws {
        let bus = LossyMessageBus()
        let (a, b) = try await Self.pair(backend, bus: bus)
        try await a.put(checkoutDefinition(value: false))
        #expect(try await Self.served(b).jsonBody?["flags"]?.arrayValue?.first?["value"] == false)
        try await a.put(checkoutDefinition(value: true))
        #expect(try await Self.served(b).jsonBody?["flags"]?.arrayValue?.first?["value"] == false)
        let killed = try await b.routes.execute(
            "POST", "/v1/flags/production/definitions/new-checkout/kill", headers: FlagHarness.admin)
        #expect(killed.status == 200)
        #expect(killed.jsonBody?["flag"]?["value"] == true)
        let stored = try await Self.served(a).jsonBody?["flags"]?.arrayValue?.first
        #expect(stored?["enabled"] == false)
        #expect(stored?["value"] == true)
    }

    /// The admin listing an editor reads before a change comes from the store: an instance that
    /// missed the other's edit still serves its older document until the version poll, but lists
    /// the definitions as stored.
    @Test(arguments: StoreBackend.allCases)
    func theAdminListingOfAnInstanceWithAStaleCacheIsTheStoredOne(backend: StoreBackend) async throws {
        let bus = LossyMessageBus()
        let (a, b) = try await Self.pair(backend, bus: bus)
        try await a.put(checkoutDefinition(value: false))
        #expect(try await Self.served(b).jsonBody?["version"] == 1)
        try await a.put(checkoutDefinition(value: true))
        #expect(try await Self.served(b).jsonBody?["version"] == 1)
        let listed = try await b.routes.execute(
            "GET", "/v1/flags/production/definitions", headers: FlagHarness.admin)
        #expect(listed.status == 200)
        #expect(listed.jsonBody?["version"] == 2)
        #expect(listed.jsonBody?["flags"]?.arrayValue?.first?["value"] == true)
    }

    @Test(arguments: StoreBackend.allCases)
    func lostWakeUpIsCaughtByTheVersionPoll(backend: StoreBackend) async throws {
        let bus = LossyMessageBus()
        let (a, b) = try await Self.pair(backend, bus: bus)
        try await a.put(checkoutDefinition())
        #expect(try await Self.served(b).jsonBody?["version"] == 1)
        let poll = try #require(b.service.backgroundJobs.first { $0.name == "flags.version-poll" })
        let job = Task { await poll.run() }
        defer { job.cancel() }
        try await b.clock.waitForSleepers(1)
        try await a.put(checkoutDefinition(value: true))
        #expect(bus.dropped.load(ordering: .relaxed) >= 2)
        #expect(try await Self.served(b).jsonBody?["version"] == 1)
        b.clock.advance(by: .seconds(1))
        try await b.clock.waitForSleepers(1)
        let caughtUp = try await Self.served(b)
        #expect(caughtUp.jsonBody?["version"] == 2)
        #expect(caughtUp.header("etag") == (try await Self.served(a)).header("etag"))
    }
}
