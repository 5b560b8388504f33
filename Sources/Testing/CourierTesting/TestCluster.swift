import Foundation

/// Courier as `make run-cluster` runs it, for the cluster suite: `courier-server` instances as
/// real processes on fixed loopback ports, one PostgreSQL database (`TestPostgres`), one
/// `nats-server` (`TestNATS`) and haproxy in front with the project's own configuration
/// (scripts/cluster/haproxy.cfg.in). Tests pin an instance by its port or go through the proxy,
/// kill instances and start them again on the same port.
///
/// ```swift
/// let cluster = try await TestCluster.start()
/// defer { cluster.stop() }
/// cluster.kill(0)
/// ```
public final class TestCluster: @unchecked Sendable {
    /// The PostgreSQL database every instance shares.
    public let database: String
    /// The bus every instance shares.
    public let nats: TestNATS
    /// Whether the instances use it (`--nats`).
    public let usesNATS: Bool
    /// Each instance's port.
    public let ports: [Int]
    /// haproxy's port.
    public let proxyPort: Int
    /// The write key every instance accepts.
    public let writeKey: String
    /// The admin token of every instance.
    public let adminToken = "cluster-admin-token-0123456789"

    private let server: String
    private let extra: [String]
    private let environment: [String: String]
    private let directory: String
    // Guarded by `lock`.
    private let lock = NSLock()
    private var processes: [ChildProcess?]
    private var proxy: ChildProcess?

    /// Why the cluster could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    private init(
        database: String, nats: TestNATS, usesNATS: Bool, ports: [Int], proxyPort: Int, writeKey: String,
        server: String, extra: [String], environment: [String: String], directory: String
    ) {
        self.environment = environment
        self.database = database
        self.nats = nats
        self.usesNATS = usesNATS
        self.ports = ports
        self.proxyPort = proxyPort
        self.writeKey = writeKey
        self.server = server
        self.extra = extra
        self.directory = directory
        processes = ports.map { _ in nil }
    }

    deinit { stop() }

    /// Starts `instances` instances and haproxy, and returns once each answers `/healthz`
    /// directly and through the proxy.
    /// - Parameters:
    ///   - extra: more `courier-server` options for every instance.
    ///   - database: the database to use instead of a new one of `TestPostgres`.
    ///   - usingNATS: `false` starts the instances without `--nats` (one instance on its own).
    ///   - environment: more environment for every instance (`COURIER_SYNC_TOKENS`…).
    /// - Throws: `StartError`; `TestPostgres.StartError`; `TestNATS.StartError`.
    public static func start(
        instances: Int = 2, writeKey: String = "cluster-key", extra: [String] = [], database: String? = nil,
        usingNATS: Bool = true, environment: [String: String] = [:]
    ) async throws -> TestCluster {
        guard let server = builtExecutable(named: "courier-server") else {
            throw StartError(description: "build courier-server first (swift build)")
        }
        guard
            let haproxy = ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/opt/homebrew/bin/haproxy"]
                .first(where: FileManager.default.isExecutableFile(atPath:))
        else { throw StartError(description: "haproxy is not installed; `make test` installs it") }
        let made = database == nil ? try await TestPostgres.shared.makeDatabase() : nil
        guard let database = database ?? made else { throw StartError(description: "no database") }
        let nats = try await TestNATS.start()
        let directory = NSTemporaryDirectory() + "courier-cluster-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cluster = TestCluster(
            database: database, nats: nats, usesNATS: usingNATS,
            ports: try (0..<instances).map { _ in try freeLoopbackPort() },
            proxyPort: try freeLoopbackPort(), writeKey: writeKey, server: server, extra: extra,
            environment: environment, directory: directory)
        for index in 0..<instances { try await cluster.start(index) }
        try await cluster.startProxy(haproxy)
        return cluster
    }

    /// `http://127.0.0.1:<port>` of instance `index`.
    public func baseURL(_ index: Int) -> String { "http://127.0.0.1:\(ports[index])" }

    /// `http://127.0.0.1:<port>` of haproxy.
    public var proxyURL: String { "http://127.0.0.1:\(proxyPort)" }

    /// Starts instance `index` (again) on its port and waits until it answers `/healthz`.
    /// - Throws: `StartError` when it exits or does not answer.
    public func start(_ index: Int) async throws {
        let name = "instance-\(index)"
        let data = directory + "/" + name
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let arguments =
            [
                "--port", String(ports[index]), "--data-dir", data, "--database", database, "--instance-name", name,
                "--write-key", writeKey, "--quiet", "--rate-limit-client", "0",
                "--rate-limit-key", "0", "--rate-limit-registrations", "0", "--rate-limit-sends", "0",
                "--trusted-proxy", "127.0.0.1/32",
            ] + (usesNATS ? ["--nats", nats.url] : []) + extra
        var environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
        environment["COURIER_ADMIN_TOKEN"] = adminToken
        let process = try ChildProcess(
            server, arguments, environment: environment, output: .discard, errorOutput: .discard)
        lock.withLock { processes[index] = process }
        guard await Self.answersHealthCheck(port: ports[index], unlessExited: process) else {
            let ended = process.hasExited ? "exited with status \(process.wait())" : "did not answer /healthz"
            throw StartError(description: "\(name) \(ended) on port \(ports[index])")
        }
    }

    /// Kills instance `index` with SIGKILL and waits until it is gone.
    public func kill(_ index: Int) async {
        guard
            let process = lock.withLock({ () -> ChildProcess? in
                defer { processes[index] = nil }; return processes[index]
            })
        else { return }
        process.signal(SIGKILL)
        _ = await runOffPool { process.wait() }
    }

    /// Stops every instance and haproxy and removes their files (the database and NATS end with
    /// the test process).
    public func stop() {
        let all = lock.withLock { () -> [ChildProcess] in
            defer {
                processes = processes.map { _ in nil }
                proxy = nil
            }
            return processes.compactMap { $0 } + (proxy.map { [$0] } ?? [])
        }
        for process in all { process.signal(SIGKILL) }
        for process in all { _ = process.wait() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func startProxy(_ haproxy: String) async throws {
        let template = try String(
            contentsOf: ProjectPaths.packageRoot.appendingPathComponent("scripts/cluster/haproxy.cfg.in"),
            encoding: .utf8)
        let servers = ports.enumerated().map { "    server instance-\($0.offset) 127.0.0.1:\($0.element) check" }
        let configuration =
            template
            .replacingOccurrences(of: "@BIND@", with: "127.0.0.1:\(proxyPort)")
            .replacingOccurrences(of: "@SERVERS@", with: servers.joined(separator: "\n"))
        let path = directory + "/haproxy.cfg"
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        let process = try ChildProcess(
            "/bin/sh", ["-c", "exec \"$0\" -f \"$1\" -db >\"$1.log\" 2>&1", haproxy, path], output: .discard,
            errorOutput: .discard)
        lock.withLock { proxy = process }
        guard await Self.answersHealthCheck(port: proxyPort, unlessExited: process) else {
            // What haproxy said (a port taken meanwhile, instances marked down) is removed with
            // the directory: it goes into the error.
            let log = (try? String(contentsOfFile: path + ".log", encoding: .utf8)) ?? "(no log)"
            let ended = process.hasExited ? "exited with status \(process.wait())" : "did not answer /healthz"
            throw StartError(description: "haproxy \(ended) on port \(proxyPort); its log ends: \(log.suffix(2_000))")
        }
    }

    /// Whether `GET /healthz` on `port` answers 200 within 60 s (checked every 20 ms); `false` as
    /// soon as `process`, the server that should answer, has exited.
    public static func answersHealthCheck(port: Int, unlessExited process: ChildProcess? = nil) async -> Bool {
        var exited = false
        let answered = await poll(every: .milliseconds(20)) {
            exited = exited || process?.hasExited == true
            if exited { return true }
            return await runOffPool {
                guard let socket = try? RawSocket(port: port, timeoutSeconds: 5) else { return false }
                guard (try? socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) != nil
                else { return false }
                return socket.readResponse()?.status == 200
            }
        }
        return answered && !exited
    }
}
