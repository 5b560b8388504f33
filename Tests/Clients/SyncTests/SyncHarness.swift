import CourierCore
import CourierHTTP
import CourierPostgres
import CourierTesting
import Foundation
import Sync
import SyncServer
import SyncWire

/// A sync service with a manual clock and a SQLite store in a temporary directory or
/// (`backend: .postgres`) a PostgreSQL database of its own (so it can be restarted on the same
/// data), on a real server on 127.0.0.1 with an ephemeral port, or (`listening: false`)
/// answering in process only, through `routes`. With `instances: 2`, a second instance of the
/// server shares the store and a bus with the first, as two processes behind a balancer do.
final class SyncHarness: @unchecked Sendable {
    // @unchecked: `server`, `service`, `store` and `sibling` change only in `restart()`, which
    // tests call between steps from one task, never while another task reads them.
    static let token = "token-alice"
    static let owner = "alice"

    let clock: ManualClock
    let directory: String
    let configuration: SyncServerConfiguration
    let listening: Bool
    /// The PostgreSQL database's address, or `nil` on SQLite.
    let databaseURL: String?
    private(set) var store: any SyncStore
    private(set) var service: SyncService
    private(set) var server: HTTPServer
    /// The second instance, on the same store and bus, when there is one.
    private(set) var sibling: (service: SyncService, server: HTTPServer)?
    /// The bus the instances share.
    let bus = LocalMessageBus()
    let instances: Int

    init(
        backend: StoreBackend = .sqlite,
        clock: ManualClock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200)), listening: Bool = true,
        instances: Int = 1, configure: (inout SyncServerConfiguration) -> Void = { _ in }
    ) async throws {
        self.instances = instances
        self.clock = clock
        self.listening = listening
        directory = NSTemporaryDirectory() + "sync-" + Identifier.uuid()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var configuration = SyncServerConfiguration()
        configuration.tokens = [Self.token: Self.owner, "token-bob": "bob"]
        configure(&configuration)
        self.configuration = configuration
        databaseURL = backend == .postgres ? try await TestPostgres.shared.makeDatabase() : nil
        (store, service, server) = try await Self.start(
            directory: directory, databaseURL: databaseURL, configuration: configuration, clock: clock,
            listening: listening, bus: bus)
        sibling = try await startSibling()
    }

    /// The second instance on the first one's store, subscribed (with the first) to each other's
    /// pushes; `nil` with one instance.
    private func startSibling() async throws -> (service: SyncService, server: HTTPServer)? {
        guard instances > 1 else { return nil }
        let (store, configuration, clock, bus) = (store, configuration, clock, bus)
        let service = try await offPool {
            try SyncService(configuration: configuration, store: store, clock: clock, bus: bus)
        }
        let server = try Self.serve(service, listening: listening)
        try await self.service.subscribeToPushes()
        try await service.subscribeToPushes()
        return (service, server)
    }

    private static func start(
        directory: String, databaseURL: String?, configuration: SyncServerConfiguration, clock: ManualClock,
        listening: Bool, bus: LocalMessageBus
    ) async throws -> (any SyncStore, SyncService, HTTPServer) {
        let (store, service) = try await offPool { () throws -> (any SyncStore, SyncService) in
            let store: any SyncStore =
                if let databaseURL {
                    try PostgresSyncStore(url: databaseURL, connections: 4)
                } else {
                    try SQLiteSyncStore(path: directory + "/sync.sqlite")
                }
            return (store, try SyncService(configuration: configuration, store: store, clock: clock, bus: bus))
        }
        let server = try serve(service, listening: listening)
        return (store, service, server)
    }

    /// An HTTP server for `service` on an ephemeral port, started when `listening`.
    private static func serve(_ service: SyncService, listening: Bool) throws -> HTTPServer {
        var router = Router()
        service.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        let server = HTTPServer(configuration: http, router: router)
        if listening { try server.start() }
        return server
    }

    var baseURL: String { server.baseURL }

    /// The address of instance `index` (0 or, with two instances, 1).
    func baseURL(instance index: Int) -> String { index == 0 ? server.baseURL : sibling?.server.baseURL ?? "" }

    /// The server's routes and middleware, called in process (no socket).
    var routes: RouterTestClient { RouterTestClient(server: server) }

    /// Stops the servers (waiting for them, off the cooperative pool) and starts new ones on the
    /// same data directory: a server restart.
    func restart() async throws {
        await server.shutdown(deadline: .milliseconds(200))
        await sibling?.server.shutdown(deadline: .milliseconds(200))
        (store, service, server) = try await Self.start(
            directory: directory, databaseURL: databaseURL, configuration: configuration, clock: clock,
            listening: listening, bus: bus)
        sibling = try await startSibling()
    }

    /// Stops the server without waiting.
    func stop() {
        inBackground { [server, sibling, directory] in
            server.stop()
            sibling?.server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// A transport to instance `instance` of the server (following restarts) that can be told to fail.
    func transport(token: String = token, instance: Int = 0) -> FaultyTransport {
        FaultyTransport(harness: self, token: token, instance: instance)
    }

    /// A client with its own store file.
    func client(
        _ name: String, policies: [String: ConflictPolicy] = [:], transport: FaultyTransport? = nil
    ) throws -> (SyncClient, FaultyTransport) {
        let transport = transport ?? self.transport()
        var configuration = SyncConfiguration()
        configuration.policies = policies
        configuration.pokeWait = .seconds(5)
        let client = try SyncClient(
            path: directory + "/\(name).sqlite", configuration: configuration, transport: transport, clock: clock)
        return (client, transport)
    }

    /// The server's snapshot checksum for the test owner.
    func serverChecksum() async throws -> String {
        RecordSetChecksum.of(try await serverSnapshot().records)
    }

    /// The server's snapshot for the test owner, read off the cooperative pool (libpq blocks).
    func serverSnapshot() async throws -> SyncSnapshot {
        let store = store
        return try await offPool { try store.snapshot(owner: Self.owner) }
    }

    /// Rows of the server's tables, read straight from its database off the cooperative pool:
    /// `sql` is written with `$1` parameters (SQLite reads them as `?1`).
    func serverRows<T: Sendable>(
        _ sql: String, _ arguments: [SQLValue], row: @escaping @Sendable (any DatabaseRow) throws -> T
    ) async throws -> [T] {
        let (url, path) = (databaseURL, directory + "/sync.sqlite")
        return try await offPool {
            if let url { return try PostgresConnection(url: url).query(sql, arguments) { try row($0) } }
            return try Database(path: path).query(sql.replacingOccurrences(of: "$", with: "?"), arguments) {
                try row($0)
            }
        }
    }

    /// Runs the service's tombstone collection off the cooperative pool.
    func collectTombstones() async throws -> Int {
        let service = service
        return try await offPool { try service.collectTombstones() }
    }
}

/// The real HTTP transport with faults on demand: a request that never reaches the server, or
/// one whose answer is lost after the server committed it.
final class FaultyTransport: SyncTransport, @unchecked Sendable {
    // @unchecked: the fault flags are guarded by `lock`.
    enum Fault: Sendable {
        case none
        /// The request fails before reaching the server.
        case offline
        /// The server processes the request; its answer is lost.
        case loseAnswer
    }

    private let harness: SyncHarness
    private let token: String
    private let instance: Int
    private let lock = NSLock()
    private var fault = Fault.none
    private var delivered: [SyncRecord] = []
    private var beforePull: (@Sendable () async -> Void)?
    private let client = HTTPClient(timeout: .seconds(30))

    init(harness: SyncHarness, token: String, instance: Int = 0) {
        self.harness = harness
        self.token = token
        self.instance = instance
    }

    func set(_ fault: Fault) { lock.withLock { self.fault = fault } }

    /// Runs `action` once, just before the next pull is sent: a local write landing mid-cycle.
    func beforeNextPull(_ action: @escaping @Sendable () async -> Void) { lock.withLock { beforePull = action } }

    /// Every record version the server applied and this transport delivered the answer for:
    /// the writes the client was told are durable.
    var acknowledged: [SyncRecord] { lock.withLock { delivered } }

    private var inner: HTTPSyncTransport {
        HTTPSyncTransport(baseURL: harness.baseURL(instance: instance), token: token, client: client)
    }

    private func run<T>(_ body: () async throws(SyncError) -> T) async throws(SyncError) -> T {
        let current = lock.withLock { fault }
        if case .offline = current { throw SyncError(.transport, "offline (injected)") }
        let value = try await body()
        if case .loseAnswer = current { throw SyncError(.transport, "answer lost (injected)") }
        return value
    }

    func push(clientID: String, operations: [SyncOperation]) async throws(SyncError) -> [SyncOpResult] {
        let results = try await run { () async throws(SyncError) in
            try await inner.push(clientID: clientID, operations: operations)
        }
        let applied = results.compactMap { result -> SyncRecord? in
            if case .applied(let record) = result.outcome { return record }
            return nil
        }
        lock.withLock { delivered += applied }
        return results
    }

    func changes(since cursor: String?, limit: Int) async throws(SyncError) -> SyncPull {
        let action = lock.withLock {
            defer { beforePull = nil }
            return beforePull
        }
        await action?()
        return try await run { () async throws(SyncError) in try await inner.changes(since: cursor, limit: limit) }
    }

    func snapshot() async throws(SyncError) -> SyncSnapshotAnswer {
        try await run { () async throws(SyncError) in try await inner.snapshot() }
    }

    func poke(since cursor: String?, wait: Duration) async throws(SyncError) -> Bool {
        try await run { () async throws(SyncError) in try await inner.poke(since: cursor, wait: wait) }
    }
}
