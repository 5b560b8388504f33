import CourierCore
import CourierHTTP
import FlagRules
import Synchronization

/// Flag definitions per environment key, served to clients with an `ETag`, evaluated for thin
/// clients, edited through admin routes that validate every change and audit it.
///
/// ```swift
/// let flags = FlagService(store: try SQLiteFlagStore(path: dataDirectory + "/flags.sqlite"))
/// flags.mount(on: &router)
/// ```
public final class FlagService: Sendable {
    /// One environment as served: parsed for evaluation, encoded once for fetches.
    struct Served: Sendable {
        let document: FlagDocument
        let body: [UInt8]
        let gzipped: [UInt8]?
        let etag: String
    }

    /// The limits and admin token in force.
    public let configuration: FlagServerConfiguration
    let store: any FlagStore
    let clock: any Clock
    let served: ServedCache
    /// One edit at a time on this instance. The store orders edits across instances
    /// (`FlagStore.edit`); this keeps an instance's edits waiting on another's from taking more
    /// than one of the store's connections, which reads need.
    let editLock = Mutex<Int>(0)
    /// Tells the other instances which environment changed, and hears theirs.
    let changes: BusWakeUps

    /// Creates the service.
    /// - Parameters:
    ///   - configuration: admin token and limits.
    ///   - store: where definitions and the audit table live.
    ///   - clock: the time of audit rows, of `--expired` and of the version poll.
    ///   - bus: shared with the other instances, which drop an environment's cached document when
    ///     one of them edits it; the default serves one process.
    public init(
        configuration: FlagServerConfiguration = .init(), store: any FlagStore, clock: any Clock = SystemClock(),
        bus: any MessageBus = LocalMessageBus()
    ) {
        self.configuration = configuration
        self.store = store
        self.clock = clock
        let served = ServedCache(clock: clock, unknownLifetime: configuration.unknownEnvironmentLifetime)
        self.served = served
        changes = BusWakeUps(bus: bus, prefix: "flags.changed") { environment in
            served.forget(environment)
        }
    }

    /// Adds the flag routes to `router` (docs/feature-flags.md lists them).
    public func mount(on router: inout Router) {
        router.group("/v1/flags", middleware: [AdminAuthMiddleware(token: configuration.adminToken)]) { admin in
            admin.add("GET", "/") { [self] in try listEnvironments($0) }
        }
        router.group("/v1/flags/{envKey}") { flags in
            // A cached environment is answered on the engine's loop; a miss reads the store as a task.
            flags.add("GET", "/", crossOrigin: .anyOrigin, fromMemory: { [self] in try cachedDefinitions($0) }) {
                [self] in try getDefinitions($0)
            }
            flags.add("POST", "/evaluate", crossOrigin: .anyOrigin) { [self] in try evaluate($0) }
            flags.group(middleware: [AdminAuthMiddleware(token: configuration.adminToken)]) { admin in
                admin.add("GET", "/definitions") { [self] in try listDefinitions($0) }
                admin.add("PUT", "/definitions/{flagKey}") { [self] in try putDefinition($0) }
                admin.add("POST", "/definitions/{flagKey}/kill") { [self] in try kill($0) }
                admin.add("PUT", "/segments/{segmentKey}") { [self] in try putSegment($0) }
                admin.add("GET", "/audit") { [self] in try audit($0) }
            }
        }
    }

    /// The environment as served, built from the store on first use and after each change.
    func servedEnvironment(_ key: String) throws(HTTPError) -> Served? {
        let cached = served.lookup(key)
        if let entry = cached.entry { return entry }
        if cached.isUnknown { return nil }
        guard let document = try storedDocument(key) else {
            served.keepUnknown(key, readAt: cached.generation)
            return nil
        }
        let entry = Self.serve(document, gzipThreshold: configuration.gzipThresholdBytes)
        served.keep(entry, for: key, readAt: cached.generation)
        return entry
    }

    /// The environment's document as the store holds it now, or `nil` when it has none.
    func storedDocument(_ key: String) throws(HTTPError) -> FlagDocument? {
        let stored: StoredEnvironment?
        do {
            stored = try store.environment(key)
        } catch {
            throw HTTPError(.storageUnavailable, "the flag store is unavailable")
        }
        guard let stored else { return nil }
        do {
            return try Self.document(environment: key, stored)
        } catch {
            // Stored definitions were validated when written; a failure here is corruption.
            throw HTTPError(.storageUnavailable, "the stored definitions do not validate: \(error)")
        }
    }

    static func document(environment: String, _ stored: StoredEnvironment) throws(FlagDefinitionError) -> FlagDocument {
        try FlagDocument.parse(
            [
                "environment": .string(environment), "version": .int(stored.version), "flags": .array(stored.flags),
                "segments": .array(stored.segments),
            ], strict: true)
    }

    static func serve(_ document: FlagDocument, gzipThreshold: Int) -> Served {
        let body = JSONWriter.encode(document.json)
        let gzipped = body.count >= gzipThreshold ? try? Gzip.compress(body) : nil
        let etag = "\"\(document.version)-\(String(FNV1a.hash32(bytes: body), radix: 16))\""
        return Served(document: document, body: body, gzipped: gzipped, etag: etag)
    }
}

extension FlagService {
    /// The work to run beside the server (`HTTPServer(…, jobs:)`): the subscription to the other
    /// instances' edits, and the backstop for a wake-up the bus lost: every second of the
    /// service's clock, `forgetChangedEnvironments()`.
    public var backgroundJobs: [BackgroundJob] {
        [
            changes.job(name: "flags.changes", clock: clock),
            .every(
                .seconds(1), on: clock, name: "flags.version-poll",
                blocking: { [self] in
                    _ = try? forgetChangedEnvironments()
                }),
        ]
    }

    /// Hears the other instances' edits from now on (the `flags.changes` job does it too); a
    /// test awaits it before editing on another instance.
    /// - Throws: `BusError` when the bus refuses the subscription.
    public func subscribeToChanges() async throws(BusError) {
        try await changes.start()
    }

    /// Drops each cached environment whose stored version is no longer the one it serves.
    /// - Returns: how many were dropped.
    /// - Throws: `HTTPError.storageUnavailable`.
    @discardableResult
    public func forgetChangedEnvironments() throws(HTTPError) -> Int {
        let cached = served.versions
        guard !cached.isEmpty || served.hasUnknown else { return 0 }
        let stored: [String: Int64]
        do {
            stored = try store.versions()
        } catch {
            throw HTTPError(.storageUnavailable, "the flag store is unavailable")
        }
        let changed = cached.filter { stored[$0.key] != $0.value }.keys
        for environment in changed { served.forget(environment) }
        served.forgetUnknown(in: stored.keys)
        return changed.count
    }
}
