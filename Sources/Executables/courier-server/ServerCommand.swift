import AnalyticsCollector
import Console
import CourierCommandLine
import CourierCore
import CourierHTTP
import CourierNATS
import FlagServer
import Foundation
import MessengerServer
import SyncServer

/// Wires the server libraries onto one `HTTPServer` with one data directory and runs until
/// SIGINT or SIGTERM.
enum ServerCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        var options: ServerOptions
        do {
            options = try ServerOptions(ServerOptions.command.parseOrExit(arguments, tool: "courier-server"))
        } catch {
            FileHandle.standardError.write(Data("courier-server: \(error)\n".utf8))
            return UsageError.exitCode
        }
        options.environment = ProcessInfo.processInfo.environment
        do {
            try await serve(options)
            return 0
        } catch {
            FileHandle.standardError.write(Data("courier-server: \(error)\n".utf8))
            return 1
        }
    }

    /// The PostgreSQL database `--database` (or `COURIER_DATABASE_URL`) names, if any: the
    /// collector, the messenger, sync, the flags and the console's sessions keep their state there.
    private static func databaseURL(_ options: ServerOptions) -> String? {
        let url = options.databaseURL ?? options.environment["COURIER_DATABASE_URL"]
        return url?.isEmpty == false ? url : nil
    }

    /// The bus between instances: NATS when `--nats` (or `COURIER_NATS_URL`) names a server, else
    /// this process only.
    private static func messageBus(_ options: ServerOptions) throws -> any MessageBus {
        let url = options.natsURL ?? options.environment["COURIER_NATS_URL"]
        guard let url, !url.isEmpty else { return LocalMessageBus() }
        let name = options.instanceName ?? "courier-server-\(ProcessInfo.processInfo.hostName)-\(getpid())"
        return try NATSMessageBus(url: url, name: name)
    }

    /// The messenger's store: PostgreSQL when a database is named, else SQLite in the data directory.
    private static func messengerStore(_ options: ServerOptions) throws -> any MessengerStore {
        guard let url = databaseURL(options) else {
            return try SQLiteMessengerStore(path: options.dataDirectory + "/messenger.sqlite")
        }
        return try PostgresMessengerStore(url: url)
    }

    /// The collector's store: PostgreSQL when a database is named, else SQLite in the data
    /// directory with its dedupe index filled before the server listens.
    private static func eventStore(_ options: ServerOptions, dedupeWindow: Duration) throws -> any EventStore {
        if let url = databaseURL(options) { return try PostgresEventStore(url: url) }
        let store = try SQLiteEventStore(path: options.dataDirectory + "/collector.sqlite", dedupeWindow: dedupeWindow)
        try store.loadDedupeIndex(since: SystemClock().nowMilliseconds - dedupeWindow.wholeMilliseconds)
        return store
    }

    private static func serve(_ options: ServerOptions) async throws {
        // Freed memory stays with its arena up to a few MB instead of going back to the kernel
        // on every free; the release job gives back what a quiet server does not use.
        ServerMemory.retainFreedMemory()
        try FileManager.default.createDirectory(atPath: options.dataDirectory, withIntermediateDirectories: true)
        let lock = try FileLock(path: options.dataDirectory + "/courier.lock")
        let bus = try messageBus(options)
        var configuration = CollectorConfiguration()
        configuration.adminToken = try options.resolvedAdminToken()
        configuration.dedupeWindow = .milliseconds(Int64(options.dedupeWindowHours * 3_600_000))
        let store = try eventStore(options, dedupeWindow: configuration.dedupeWindow)
        if options.adminToken != nil {
            FileHandle.standardError.write(
                Data(
                    "courier-server: warning: --admin-token shows the token in the process list; use --admin-token-file or COURIER_ADMIN_TOKEN\n"
                        .utf8))
        }
        if let n = options.rateLimitPerWriteKey {
            configuration.rateLimitPerWriteKey = n > 0 ? RateLimit(perSecond: n, burst: n * 2) : nil
        }
        if let n = options.rateLimitPerClient {
            configuration.rateLimitPerClient = n > 0 ? RateLimit(perSecond: n, burst: n * 2) : nil
        }
        // Half the handler threads may read batches whose key is in the body (browsers' beacons
        // can send no header); the other half stays free for everything else.
        configuration.maximumBodyKeyParses = max(configuration.maximumBodyKeyParses, options.handlerThreads / 2)
        configuration.storageQuotaPerWriteKey = options.quotaPerWriteKeyMiB.map { $0 << 20 }
        configuration.storageQuotaTotal = options.quotaTotalMiB.map { $0 << 20 }
        let collector = Collector(configuration: configuration, store: store, bus: bus)
        try collector.register(writeKeys: try options.allWriteKeys())

        var messengerConfiguration = MessengerConfiguration()
        messengerConfiguration.attachmentDirectory = options.dataDirectory + "/attachments"
        messengerConfiguration.adminToken = configuration.adminToken
        messengerConfiguration.webhookAddresses = WebhookAddressPolicy(allowedNetworks: options.webhookAllowedNetworks)
        if let n = options.registrationsPerMinute {
            messengerConfiguration.registrationRate = n > 0 ? RateLimit(perSecond: n / 60, burst: 10) : nil
        }
        if let n = options.sendsPerSecond {
            messengerConfiguration.sendRate = n > 0 ? RateLimit(perSecond: n, burst: 200) : nil
        }
        let messengerStore = try messengerStore(options)
        let messenger = MessengerServer(
            configuration: messengerConfiguration, store: messengerStore, pushSenders: try pushSenders(options),
            bus: bus, attachments: (messengerStore as? PostgresMessengerStore)?.attachments)

        var router = Router()
        collector.mount(on: &router)
        messenger.mount(on: &router)
        var flagConfiguration = FlagServerConfiguration()
        flagConfiguration.adminToken = configuration.adminToken
        let flagStore: any FlagStore =
            try databaseURL(options).map { try PostgresFlagStore(url: $0) }
            ?? SQLiteFlagStore(path: options.dataDirectory + "/flags.sqlite")
        let flags = FlagService(configuration: flagConfiguration, store: flagStore, bus: bus)
        flags.mount(on: &router)
        var syncConfiguration = SyncServerConfiguration()
        syncConfiguration.tokens = SyncServerConfiguration.tokens(
            from: options.environment["COURIER_SYNC_TOKENS"] ?? "")
        let syncStore: any SyncStore =
            try databaseURL(options).map { try PostgresSyncStore(url: $0) }
            ?? SQLiteSyncStore(path: options.dataDirectory + "/sync.sqlite")
        let sync = try SyncService(configuration: syncConfiguration, store: syncStore, bus: bus)
        sync.mount(on: &router)
        if options.metricsRequireAdmin && configuration.adminToken == nil {
            throw ServerOptionsError("--metrics-require-admin needs an admin token")
        }
        var consoleConfiguration = ConsoleConfiguration()
        consoleConfiguration.adminToken = configuration.adminToken
        consoleConfiguration.secureCookies = options.tlsCertificate != nil
        let sessions: any ConsoleSessionStore =
            try databaseURL(options).map { try PostgresConsoleSessionStore(url: $0) } ?? InMemoryConsoleSessionStore()
        let console = Console(configuration: consoleConfiguration, sessions: sessions)
        console.mount(on: &router)
        let metrics = HTTPMetrics()
        router.addHealthCheck()
        router.addMetrics(
            metrics, token: options.metricsRequireAdmin ? configuration.adminToken : nil,
            providers: [{ collector.metricsText() }, { messenger.metricsText() }]
                + ((bus as? NATSMessageBus).map { nats in [{ nats.metricsText() }] } ?? []))
        OpenAPIRoute.mount(on: &router)
        for route in OpenAPIRoute.undocumentedRoutes(of: router) {
            FileHandle.standardError.write(Data("courier-server: \(route) is missing from /openapi.json\n".utf8))
        }
        var http = HTTPServerConfiguration()
        http.host = options.host
        http.port = options.port
        // Handlers that wait on a commit (a send's group commit) hold their thread meanwhile.
        http.handlerThreads = options.handlerThreads
        http.serviceThreads = options.loops
        http.trustedProxies = options.trustedProxies
        if let certificate = options.tlsCertificate, let key = options.tlsKey {
            http.tls = HTTPServerTLS(certificateChainPath: certificate, privateKeyPath: key)
        }
        http.maximumBodyBytes = configuration.maximumBatchBytes * 2
        http.maximumDecompressedBodyBytes = configuration.maximumBatchBytes + 1
        if options.accessLog {
            // Written from a thread of its own: a loop never waits on standard error.
            http.accessLog = AccessLogWriter(fileDescriptor: STDERR_FILENO).append
        }
        let server = HTTPServer(
            configuration: http, router: router, metrics: metrics,
            middleware: [console.middleware],
            jobs: [ServerMemory.releasingFreeMemory()] + collector.backgroundJobs + messenger.backgroundJobs
                + sync.backgroundJobs + flags.backgroundJobs)
        // The wake-ups of other instances are heard before this one takes requests (their jobs
        // keep trying while the bus refuses).
        async let commits: Void? = try? collector.subscribeToCommits()
        async let changes: Void? = try? flags.subscribeToChanges()
        async let pushes: Void? = try? sync.subscribeToPushes()
        _ = await (commits, changes, pushes)
        try server.start()
        FileHandle.standardOutput.write(
            Data(
                ("courier-server listening on \(server.baseURL) (data in \(options.dataDirectory))\n"
                    + "courier-server console at \(server.baseURL)/console/\n").utf8))

        // The jobs (expiry, dedupe pruning, tombstone GC) run as child tasks of `run()` and end
        // with it.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            await terminationSignal()
            print("courier-server stopping: finishing requests in flight")
            let unanswered = await server.shutdown(deadline: .seconds(10))
            if unanswered > 0 { print("courier-server: \(unanswered) requests were still in flight after 10 s") }
            try await group.waitForAll()
        }
        collector.shutdown()
        messenger.shutdown()
        withExtendedLifetime(lock) {}
        print("courier-server stopped")
    }

    /// Webhook pushes always; APNs when its key and ids are given.
    private static func pushSenders(_ options: ServerOptions) throws -> [PushEndpoint.Kind: any PushSender] {
        let webhookAddresses = WebhookAddressPolicy(allowedNetworks: options.webhookAllowedNetworks)
        var senders: [PushEndpoint.Kind: any PushSender] = [.webhook: WebhookPushSender(addresses: webhookAddresses)]
        if let file = options.apnsKeyFile, let keyId = options.apnsKeyId, let teamId = options.apnsTeamId,
            let topic = options.apnsTopic
        {
            var apns = APNsConfiguration(
                teamId: teamId, keyId: keyId, privateKeyPEM: try String(contentsOfFile: file, encoding: .utf8),
                topic: topic)
            if options.apnsSandbox { apns.baseURL = "https://api.sandbox.push.apple.com" }
            senders[.apns] = try APNsPushSender(configuration: apns)
        }
        return senders
    }

    /// Returns on the first SIGINT or SIGTERM.
    private static func terminationSignal() async {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { continuation.yield(signalNumber) }
            source.resume()
            sources.append(source)
        }
        for await _ in signals { break }
        sources.forEach { $0.cancel() }
    }
}
