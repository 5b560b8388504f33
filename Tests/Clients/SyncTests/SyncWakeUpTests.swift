import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import SyncServer
import SyncWire
import Testing

/// Two instances of the sync server on one store and one bus: a push on one wakes a poke
/// long-poll held by the other.
@Suite(.timeLimit(.minutes(2)))
struct SyncWakeUpTests {
    static let auth = ["Authorization": "Bearer \(SyncHarness.token)"]

    /// An instance on `store` and `bus`, answering in process, subscribed to the others' pushes.
    static func instance(store: any SyncStore, bus: any MessageBus, clock: ManualClock) async throws
        -> RouterTestClient
    {
        var configured = SyncServerConfiguration()
        configured.tokens = [SyncHarness.token: SyncHarness.owner]
        let configuration = configured
        let service = try await offPool {
            try SyncService(configuration: configuration, store: store, clock: clock, bus: bus)
        }
        try await service.subscribeToPushes()
        var router = Router()
        service.mount(on: &router)
        return RouterTestClient(server: HTTPServer(configuration: HTTPServerConfiguration(), router: router))
    }

    @Test(arguments: StoreBackend.allCases)
    func aPushOnOneInstanceWakesAPokeOnTheOther(backend: StoreBackend) async throws {
        let harness = try await SyncHarness(backend: backend, listening: false)
        defer { harness.stop() }
        let bus = LocalMessageBus()
        let clockA = ManualClock()
        let clockB = ManualClock()
        let a = try await Self.instance(store: harness.store, bus: bus, clock: clockA)
        let b = try await Self.instance(store: harness.store, bus: bus, clock: clockB)
        let poke = Task { try await b.execute("GET", "/v1/sync/poke?wait=30", headers: Self.auth) }
        // The long-poll is registered once its timeout sleeps on B's clock.
        try await clockB.waitForSleepers(1)
        let operation = SyncOperation(
            id: "op-1", sequence: 1, collection: "notes", recordID: "r1", kind: .set(["n": .int(1)]), baseVersion: 0,
            hlc: "")
        let pushed = try await a.execute(
            "POST", "/v1/sync/push", json: ["clientID": "c", "operations": [operation.json]], headers: Self.auth)
        #expect(pushed.status == 200)
        let woken = try await poke.value
        #expect(woken.jsonBody?["changed"] == true)
        #expect(bus.published.load(ordering: .relaxed) == 1)
    }
}
