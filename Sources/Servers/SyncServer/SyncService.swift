import CourierCore
import CourierHTTP
import Pagination
import SyncWire

/// The sync server: takes clients' operations (push), serves the changes feed by a signed cursor
/// (pull), snapshots for clients past the tombstone horizon, a poke long-poll, and a keyset list
/// of each collection's records.
///
/// ```swift
/// var configuration = SyncServerConfiguration()
/// configuration.tokens = ["token-of-alice": "alice"]
/// let sync = try SyncService(configuration: configuration, store: SQLiteSyncStore(path: dir + "/sync.sqlite"))
/// sync.mount(on: &router)
/// ```
///
/// Several instances share one PostgreSQL database with `PostgresSyncStore(url:)` instead.
public final class SyncService: Sendable {
    /// The limits and tokens in force.
    public let configuration: SyncServerConfiguration
    let store: any SyncStore
    let clock: any Clock
    /// Signs the changes feed's cursors: no maximum age, they expire by the tombstone horizon.
    let feedSigner: PageCursorSigner
    /// Signs the list endpoint's cursors, which expire after `listCursorMaximumAge`.
    let listSigner: PageCursorSigner
    let pokes = PokeHub()
    /// Tells the other instances whose push committed, and hears theirs.
    let pushes: BusWakeUps
    /// Unknown tokens per client network: guesses.
    let failures: RateLimiter?

    /// Creates the service.
    /// - Parameters:
    ///   - configuration: tokens, limits and horizons.
    ///   - store: where records live.
    ///   - clock: the time of writes, of tombstone GC and of cursor expiry.
    ///   - bus: shared with the other instances, whose poke long-polls wake when a push here
    ///     commits; the default serves one process.
    /// - Throws: the store's error when it cannot read or make the cursor key.
    public init(
        configuration: SyncServerConfiguration = .init(), store: any SyncStore, clock: any Clock = SystemClock(),
        bus: any MessageBus = LocalMessageBus()
    ) throws {
        self.configuration = configuration
        self.store = store
        self.clock = clock
        let pokes = pokes
        pushes = BusWakeUps(bus: bus, prefix: "sync.poke") { owner in pokes.poke(owner: owner) }
        failures = configuration.failedAuthenticationRate.map { RateLimiter($0, clock: clock) }
        let key = try store.cursorKey()
        feedSigner = PageCursorSigner(key: key, maximumAge: nil, clock: clock)
        listSigner = PageCursorSigner(key: key, maximumAge: configuration.listCursorMaximumAge, clock: clock)
    }

    /// Adds the sync routes to `router` (docs/sync.md lists them).
    public func mount(on router: inout Router) {
        router.group("/v1/sync") { sync in
            sync.add("POST", "/push") { [self] in try push($0) }
            sync.add("GET", "/changes") { [self] in try changes($0) }
            sync.add("GET", "/snapshot") { [self] in try snapshot($0) }
            sync.add("GET", "/poke") { [self] request, _ in try await poke(request) }
            sync.add("GET", "/collections/{collection}/records") { [self] in try list($0) }
        }
    }

    /// Deletes tombstones older than the horizon; clients whose cursor is older must refetch.
    /// - Returns: how many tombstones were collected.
    /// - Throws: `HTTPError.storageUnavailable`.
    @discardableResult
    public func collectTombstones() throws(HTTPError) -> Int {
        let horizon = configuration.tombstoneHorizon.components.seconds * 1_000
        do {
            return try store.collectTombstones(before: clock.nowMilliseconds - horizon)
        } catch {
            throw HTTPError(.storageUnavailable, "the sync store is unavailable")
        }
    }

    /// The work to run beside the server (`HTTPServer(…, jobs:)`): the subscription to the other
    /// instances' pushes, and `collectTombstones()` at once and then every
    /// `configuration.tombstoneCollectionInterval` of the service's clock.
    public var backgroundJobs: [BackgroundJob] {
        [
            pushes.job(name: "sync.pokes", clock: clock),
            .every(
                configuration.tombstoneCollectionInterval, on: clock, name: "sync.tombstones",
                blocking: { [self] in _ = try? collectTombstones() }),
        ]
    }

    /// Hears the other instances' pushes from now on (the `sync.pokes` job does it too); a test
    /// awaits it before pushing on another instance.
    /// - Throws: `BusError` when the bus refuses the subscription.
    public func subscribeToPushes() async throws(BusError) {
        try await pushes.start()
    }

    /// The owner the request's bearer token belongs to. An unknown token is a guess and spends
    /// from the client network's budget; with none left the answer is 429, before any lookup.
    func owner(_ request: HTTPRequest) throws(HTTPError) -> String {
        let client = failures == nil ? "" : request.clientNetwork
        if let failures, case .limited(let seconds) = failures.check(client) {
            throw HTTPError(
                .rateLimited, "too many unknown tokens from this client; retry later",
                headers: [("Retry-After", String(seconds))])
        }
        guard let token = request.bearerToken, let owner = configuration.tokens[token] else {
            if request.bearerToken != nil { _ = failures?.take(client) }
            throw HTTPError(.unauthorized, "a known bearer token is required")
        }
        return owner
    }

    /// Runs a store call, turning its failure into a 503 that names no SQL.
    func withStore<T>(_ body: () throws -> T) throws(HTTPError) -> T {
        do {
            return try body()
        } catch SyncStoreError.horizonPassed {
            throw HTTPError(
                .cursorExpired, "changes after this cursor were garbage-collected; refetch GET /v1/sync/snapshot")
        } catch {
            throw HTTPError(.storageUnavailable, "the sync store is unavailable")
        }
    }
}
