import CourierHTTP
import Foundation
import MessengerServer

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
    /// APNs token authentication: the `.p8` key file, its id, the team id, the app's bundle id.
    var apnsKeyFile: String?
    var apnsKeyId: String?
    var apnsTeamId: String?
    var apnsTopic: String?
    var apnsSandbox = false
    /// Networks webhook pushes may reach besides public addresses.
    var webhookAllowedNetworks: [IPNetwork] = []
    /// The environment, for `COURIER_ADMIN_TOKEN`.
    var environment: [String: String] = [:]

    /// The shortest admin token accepted.
    static let minimumAdminTokenBytes = 16

    static let usage = """
        USAGE: courier-server [options]

        Serves the analytics collector (Segment's tracking API), the messenger server and the
        feature flags, with data in embedded SQLite databases in the data directory.

        OPTIONS:
          --host ADDRESS            address to listen on (default 127.0.0.1)
          --port N                  port; 0 picks a free one (default 8080)
          --data-dir PATH           data directory (default .courier)
          --threads N               threads the HTTP handlers run on (default 32)
          --loops N                 HTTP event loops, each a thread with its own listening socket
                                    on the port (SO_REUSEPORT) (default 1)
          --tls-cert PATH           serve HTTPS: the certificate chain, PEM
          --tls-key PATH            and its private key, PEM
          --write-key KEY           accept this write key (repeatable)
          --write-keys-file PATH    accept the write keys in this file, one per line
          --admin-token-file PATH   read the admin token (at least 16 bytes) from this file;
                                    or set COURIER_ADMIN_TOKEN in the environment
          --admin-token TOKEN       the same on the command line (visible to other local users
                                    in the process list: prefer the file or the environment)
          --metrics-require-admin   GET /metrics needs the admin token too
          --rate-limit-key N        requests per second per write key (default 1000; 0: none)
          --rate-limit-client N     requests per second per client address (default 500; 0: none)
          --quota-key-mib N         stored MiB allowed per write key (default: no quota)
          --quota-total-mib N       stored MiB allowed in all (default: no quota)
          --dedupe-window-hours H   how long messageIds are remembered (default 24)
          --apns-key-file PATH      send messenger pushes to Apple devices: the .p8 key (PEM)
          --apns-key-id ID          its key id
          --apns-team-id ID         the developer team id
          --apns-topic BUNDLE-ID    the app's bundle id
          --apns-sandbox            use APNs' development environment
          --push-webhook-allow CIDR let webhook pushes reach this network although it is
                                    loopback, private or link-local (repeatable, or comma-
                                    separated: 127.0.0.0/8,::1); by default they reach only
                                    public addresses
          --quiet                   no access log
          -h, --help                show this help

        SIGINT or SIGTERM stop the server gracefully: requests in flight are finished and answered
        (new ones get 503 with Retry-After) for up to 10 s, then it stops listening, commits and
        closes the database.
        """

    enum ParseResult {
        case run(ServerOptions)
        case help
        case failure(String)
    }

    static func parse(_ arguments: [String]) -> ParseResult {
        var options = ServerOptions()
        var rest = arguments[...]
        func value(_ flag: String) -> String? {
            guard let v = rest.popFirst() else { return nil }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "-h", "--help": return .help
            case "--quiet": options.accessLog = false
            case "--metrics-require-admin": options.metricsRequireAdmin = true
            case "--rate-limit-key", "--rate-limit-client":
                guard let v = value(flag), let n = Double(v), n.isFinite, n >= 0, n <= 1_000_000 else {
                    return .failure("\(flag) must be a number of requests per second from 0 to 1000000")
                }
                if flag == "--rate-limit-key" {
                    options.rateLimitPerWriteKey = n
                } else {
                    options.rateLimitPerClient = n
                }
            case "--quota-key-mib", "--quota-total-mib":
                guard let v = value(flag), let n = Int64(v), n > 0, n <= 1 << 40 else {
                    return .failure("\(flag) must be a positive number of MiB")
                }
                if flag == "--quota-key-mib" { options.quotaPerWriteKeyMiB = n } else { options.quotaTotalMiB = n }
            case "--loops":
                guard let v = value(flag), let n = Int(v), (1...64).contains(n) else {
                    return .failure("--loops must be 1…64")
                }
                options.loops = n
            case "--tls-cert", "--tls-key":
                guard let v = value(flag) else { return .failure("\(flag) needs a path") }
                if flag == "--tls-cert" { options.tlsCertificate = v } else { options.tlsKey = v }
            case "--apns-key-file", "--apns-key-id", "--apns-team-id", "--apns-topic":
                guard let v = value(flag) else { return .failure("\(flag) needs a value") }
                switch flag {
                case "--apns-key-file": options.apnsKeyFile = v
                case "--apns-key-id": options.apnsKeyId = v
                case "--apns-team-id": options.apnsTeamId = v
                default: options.apnsTopic = v
                }
            case "--apns-sandbox": options.apnsSandbox = true
            case "--push-webhook-allow":
                guard let v = value(flag) else { return .failure("\(flag) needs a network like 10.0.0.0/8") }
                for part in v.split(separator: ",") {
                    let text = part.trimmingCharacters(in: .whitespaces)
                    guard let network = IPNetwork(text) else {
                        return .failure("\(flag): \(text) is not an address or a network like 10.0.0.0/8 or fd00::/8")
                    }
                    options.webhookAllowedNetworks.append(network)
                }
            case "--host", "--port", "--data-dir", "--threads", "--write-key", "--write-keys-file",
                "--admin-token", "--admin-token-file", "--dedupe-window-hours":
                guard let v = value(flag) else { return .failure("\(flag) needs a value") }
                switch flag {
                case "--host": options.host = v
                case "--port":
                    guard let p = Int(v), (0...65535).contains(p) else { return .failure("--port must be 0…65535") }
                    options.port = p
                case "--data-dir": options.dataDirectory = v
                case "--threads":
                    guard let n = Int(v), (1...1024).contains(n) else { return .failure("--threads must be 1…1024") }
                    options.handlerThreads = n
                case "--write-key": options.writeKeys.append(v)
                case "--write-keys-file": options.writeKeysFile = v
                case "--admin-token": options.adminToken = v
                case "--admin-token-file": options.adminTokenFile = v
                default:
                    guard let h = Double(v), h.isFinite, h > 0, h <= 87_600 else {
                        return .failure("--dedupe-window-hours must be more than 0 and at most 87600")
                    }
                    options.dedupeWindowHours = h
                }
            default:
                return .failure("unknown option \(flag)")
            }
        }
        if (options.tlsCertificate == nil) != (options.tlsKey == nil) {
            return .failure("--tls-cert and --tls-key go together")
        }
        let apns = [options.apnsKeyFile, options.apnsKeyId, options.apnsTeamId, options.apnsTopic]
        if apns.contains(where: { $0 != nil }) && apns.contains(where: { $0 == nil }) {
            return .failure("--apns-key-file, --apns-key-id, --apns-team-id and --apns-topic go together")
        }
        return .run(options)
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
