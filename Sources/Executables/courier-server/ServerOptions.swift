import CourierCommandLine
import Foundation
import CourierHTTP

/// The command-line options of `courier-server`.
struct ServerOptions {
    var host = "127.0.0.1"
    var port = 8080
    var dataDirectory = ".courier"
    var handlerThreads = 32
    var loops = 1
    var tlsCertificate: String?
    var tlsKey: String?
    var writeKeys: [String] = []
    var writeKeysFile: String?
    var adminToken: String?
    var adminTokenFile: String?
    var dedupeWindowHours = 24.0
    var accessLog = true
    var metricsRequireAdmin = false
    var quotaPerWriteKeyMiB: Int64?
    var quotaTotalMiB: Int64?
    var rateLimitPerWriteKey: Double?
    var rateLimitPerClient: Double?
    /// Messenger accounts created per client address per minute (after a burst of 10).
    var registrationsPerMinute: Double?
    /// Messenger sends per account per second.
    var sendsPerSecond: Double?
    /// APNs token authentication: the `.p8` key file, its id, the team id, the app's bundle id.
    var apnsKeyFile: String?
    var apnsKeyId: String?
    var apnsTeamId: String?
    var apnsTopic: String?
    var apnsSandbox = false
    /// Networks webhook pushes may reach besides public addresses.
    var webhookAllowedNetworks: [IPNetwork] = []
    /// Proxies (haproxy) whose `X-Forwarded-For` names the client for per-client limits.
    var trustedProxies: [IPNetwork] = []
    /// `postgres://…`: the servers' stores on PostgreSQL instead of the data directory.
    var databaseURL: String?
    /// `nats://…`: wake-ups and presence cross instances through this NATS server.
    var natsURL: String?
    /// How this instance names itself on the bus and in logs.
    var instanceName: String?
    /// The environment, for `COURIER_ADMIN_TOKEN` and `COURIER_DATABASE_URL`.
    var environment: [String: String] = [:]

    /// The shortest admin token accepted.
    static let minimumAdminTokenBytes = 16

    /// Every option of `courier-server`: the one table the command line is read against.
    static let command = Command(
        "courier-server",
        summary: """
            Serves the analytics collector (Segment's tracking API), the messenger server, sync and the
            feature flags, with data in embedded SQLite databases in the data directory, or in
            PostgreSQL with --database.
            """,
        discussion: """
            SIGINT or SIGTERM stop the server gracefully: requests in flight are finished and answered
            (new ones get 503 with Retry-After) for up to 10 s, then it stops listening, commits and
            closes the database.
            """,
        options: bindings.map(\.option))

    /// Every option with the property it sets, in the order they are read.
    static var bindings: [OptionBinding<ServerOptions>] {
        [
            .value("--host", "ADDRESS", \.host, help: "address to listen on (default 127.0.0.1)"),
            .integer("--port", "N", \.port, in: 0...65535, help: "port; 0 picks a free one (default 8080)"),
            .value("--data-dir", "PATH", \.dataDirectory, help: "data directory (default .courier)"),
            .value(
                "--database", "URL", \.databaseURL,
                help:
                    "postgres://user@host/db: keep every server's state in PostgreSQL (or set COURIER_DATABASE_URL); default: SQLite in the data directory"
            ),
            .value(
                "--nats", "URL", \.natsURL,
                help:
                    "nats://host:4222: wake other instances (mailboxes, commits, flag edits, sync pokes) through NATS core (or set COURIER_NATS_URL); default: this process only"
            ),
            .value(
                "--instance-name", "NAME", \.instanceName,
                help: "this instance's name on the bus and in its logs (default: host name and process id)"),
            .integer(
                "--threads", "N", \.handlerThreads, in: 1...1024, help: "threads the HTTP handlers run on (default 32)"),
            .integer(
                "--loops", "N", \.loops, in: 1...64,
                help: "HTTP event loops, each a thread with its own listening socket on the port (default 1)"),
            .value("--tls-cert", "PATH", \.tlsCertificate, help: "serve HTTPS: the certificate chain, PEM"),
            .value("--tls-key", "PATH", \.tlsKey, help: "and its private key, PEM"),
            .repeated("--write-key", "KEY", \.writeKeys, help: "accept this write key"),
            .value(
                "--write-keys-file", "PATH", \.writeKeysFile, help: "accept the write keys in this file, one per line"),
            .value(
                "--admin-token-file", "PATH", \.adminTokenFile,
                help: "read the admin token (at least 16 bytes) from this file; or set COURIER_ADMIN_TOKEN"),
            .value(
                "--admin-token", "TOKEN", \.adminToken,
                help: "the same on the command line (visible in the process list: prefer the file)"),
            .flag("--metrics-require-admin", \.metricsRequireAdmin, help: "GET /metrics needs the admin token too"),
            rateLimit(
                "--rate-limit-key", \.rateLimitPerWriteKey,
                help: "requests per second per write key (default 1000; 0: none)"),
            rateLimit(
                "--rate-limit-client", \.rateLimitPerClient,
                help: "requests per second per client address (default 500; 0: none)"),
            rateLimit(
                "--rate-limit-registrations", \.registrationsPerMinute,
                help: "messenger accounts created per client address per minute, after 10 at once (default 1; 0: none)"),
            rateLimit(
                "--rate-limit-sends", \.sendsPerSecond,
                help: "messenger sends per account per second, after 200 at once (default 50; 0: none)"),
            .integer(
                "--quota-key-mib", "N", \.quotaPerWriteKeyMiB, in: 1...(1 << 40),
                help: "stored MiB allowed per write key (default: no quota)"),
            .integer(
                "--quota-total-mib", "N", \.quotaTotalMiB, in: 1...(1 << 40),
                help: "stored MiB allowed in all (default: no quota)"),
            OptionBinding(
                .value("--dedupe-window-hours", "H", help: "how long messageIds are remembered (default 24)")
            ) { invocation, options throws(UsageError) in
                guard let hours = try invocation.number("--dedupe-window-hours", in: 0...87_600) else { return }
                guard hours > 0 else { throw invocation.refusal("--dedupe-window-hours must be more than 0") }
                options.dedupeWindowHours = hours
            },
            .value(
                "--apns-key-file", "PATH", \.apnsKeyFile,
                help: "send messenger pushes to Apple devices: the .p8 key (PEM)"),
            .value("--apns-key-id", "ID", \.apnsKeyId, help: "its key id"),
            .value("--apns-team-id", "ID", \.apnsTeamId, help: "the developer team id"),
            .value("--apns-topic", "BUNDLE-ID", \.apnsTopic, help: "the app's bundle id"),
            .flag("--apns-sandbox", \.apnsSandbox, help: "use APNs' development environment"),
            networks(
                "--push-webhook-allow", \.webhookAllowedNetworks,
                help:
                    "let webhook pushes reach this network although it is loopback, private or link-local (repeatable, or comma-separated: 127.0.0.0/8,::1); by default they reach only public addresses"
            ),
            networks(
                "--trusted-proxy", \.trustedProxies,
                help:
                    "a proxy (haproxy) in front of the server: from its connections, per-client limits take the client's address from X-Forwarded-For (repeatable, or comma-separated); by default X-Forwarded-For is ignored"
            ),
            .flag("--quiet", \.accessLog, setting: false, help: "no access log"),
        ]
    }

    /// A `--rate-limit-…` option: a rate `N` from 0 (no limit) to a million, stored in `keyPath`.
    static func rateLimit(
        _ name: String, _ keyPath: WritableKeyPath<ServerOptions, Double?>, help: String
    ) -> OptionBinding<ServerOptions> {
        .number(name, "N", keyPath, in: 0...1_000_000, help: help)
    }

    /// A repeatable `CIDR` option (each value may list several, comma-separated) that appends
    /// its networks to `keyPath`.
    static func networks(
        _ name: String, _ keyPath: WritableKeyPath<ServerOptions, [IPNetwork]>, help: String
    ) -> OptionBinding<ServerOptions> {
        OptionBinding(.repeated(name, "CIDR", help: help)) { invocation, options throws(UsageError) in
            for value in invocation.values(name) {
                for part in value.split(separator: ",") {
                    let text = part.trimmingCharacters(in: .whitespaces)
                    guard let network = IPNetwork(text) else {
                        throw invocation.refusal(
                            "\(name): \(text) is not an address or a network like 10.0.0.0/8 or fd00::/8")
                    }
                    options[keyPath: keyPath].append(network)
                }
            }
        }
    }

    /// The options of a checked invocation of `command`.
    /// - Throws: `UsageError` for a value out of range or options that go together given alone.
    init(_ invocation: Invocation) throws(UsageError) {
        for binding in Self.bindings { try binding.apply(invocation, to: &self) }
        if let url = databaseURL, !(url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")) {
            throw invocation.refusal("--database takes a postgres:// or postgresql:// address")
        }
        if let url = natsURL, !(url.hasPrefix("nats://") || url.hasPrefix("tls://")) {
            throw invocation.refusal("--nats takes a nats:// address")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw invocation.refusal("--tls-cert and --tls-key go together")
        }
        let apns = [apnsKeyFile, apnsKeyId, apnsTeamId, apnsTopic]
        if apns.contains(where: { $0 != nil }) && apns.contains(where: { $0 == nil }) {
            throw invocation.refusal("--apns-key-file, --apns-key-id, --apns-team-id and --apns-topic go together")
        }
    }

    /// Write keys from the flags and the file.
    func allWriteKeys() throws -> [String] {
        var keys = writeKeys
        if let path = writeKeysFile {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            keys += text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        return keys
    }

    /// The admin token from the flag, the file or `COURIER_ADMIN_TOKEN`; `nil` when none is
    /// given (the admin API is then off).
    /// - Throws: `ServerOptionsError` for an empty or short token.
    func resolvedAdminToken() throws -> String? {
        var token = adminToken
        if token == nil, let path = adminTokenFile {
            token = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if token == nil { token = environment["COURIER_ADMIN_TOKEN"] }
        guard let token else { return nil }
        guard token.utf8.count >= Self.minimumAdminTokenBytes else {
            throw ServerOptionsError(
                "the admin token must be at least \(Self.minimumAdminTokenBytes) bytes (it has \(token.utf8.count))")
        }
        return token
    }
}

/// A setting the server refuses to start with.
struct ServerOptionsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
