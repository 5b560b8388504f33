import CourierPostgres
import Foundation

/// A throwaway PostgreSQL server for the tests: started on first use from Debian's
/// `postgresql-15` (`initdb` and `pg_ctl`), listening only on a Unix socket in a temporary
/// directory, and stopped when the test process ends, however it ends (its supervisor waits on a
/// pipe from this process). Each test gets a database of its own.
///
/// `initdb` refuses to run as root: as root, the server runs as the `postgres` user through
/// `runuser`. Durability is off (`fsync=off`): the tests check behaviour, not crash safety.
///
/// ```swift
/// let url = try await TestPostgres.shared.makeDatabase()
/// let pool = try PostgresPool(url: url)
/// ```
public actor TestPostgres {
    /// The server every test in this process shares.
    public static let shared = TestPostgres()

    /// The launch, shared by every caller that arrives while it runs.
    private var server: Task<RunningServer, any Error>?
    private var databases = 0

    private struct RunningServer {
        let supervisor: ChildProcess
        let socketDirectory: String
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong, with the server's own words where it gave some.
        public let description: String
    }

    /// Creates an empty database and returns its `postgres://` address.
    /// - Throws: `StartError` when PostgreSQL is not installed or does not start; `PostgresError`.
    public func makeDatabase() async throws -> String {
        let directory = try await start()
        databases += 1
        let name = "courier_test_\(getpid())_\(databases)"
        let admin = Self.url(socketDirectory: directory, database: "postgres")
        try await offPool {
            let connection = try PostgresConnection(url: admin)
            try connection.execute("CREATE DATABASE \(name)")
        }
        return Self.url(socketDirectory: directory, database: name)
    }

    /// Whether `finished` holds or a session of the database at `url` waits on a lock: how a
    /// test sees that a writer is held back by another's open transaction (it polls this).
    public static func isWaitingOnALock(url: String, unless finished: CompletionFlag) async -> Bool {
        if finished.isSet { return true }
        let waiting = try? await offPool {
            try PostgresConnection(url: url).query(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ) { $0.int(0) }.first ?? 0
        }
        return (waiting ?? 0) > 0
    }

    private static func url(socketDirectory: String, database: String) -> String {
        "postgres://postgres@/\(database)?host=\(socketDirectory)"
    }

    private func start() async throws -> String {
        let launch = server ?? Task { try await offPool { try Self.launch() } }
        server = launch
        return try await launch.value.socketDirectory
    }

    private static func launch() throws -> RunningServer {
        guard let bin = binaryDirectory() else {
            throw StartError(
                description: "PostgreSQL is not installed (initdb and pg_ctl); `make test` installs postgresql-15")
        }
        let directory = NSTemporaryDirectory() + "courier-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var prefix: [String] = []
        if geteuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw StartError(description: "running as root needs the postgres user (from postgresql-15)")
            }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
            prefix = ["/usr/sbin/runuser", "-u", "postgres", "--"]
        }
        let data = directory + "/data"
        let initdb = try ChildProcess.run(
            (prefix.first ?? bin + "/initdb"),
            Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [bin + "/initdb"])
                + ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        guard initdb.status == 0 else {
            throw StartError(description: "initdb failed (\(initdb.status)): \(initdb.errorOutput)")
        }
        // Starts the server, says "ready", then stops it when this process's end of the pipe
        // closes (the test process ended, whatever way).
        let options =
            "-c listen_addresses='' -c unix_socket_directories='\(directory)' -c fsync=off "
            + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        let script = """
            "$0/pg_ctl" -D "$1" -w -t 120 -l "$1/server.log" -o "$2" start >/dev/null || exit 1
            echo ready
            read -r _
            "$0/pg_ctl" -D "$1" -m immediate stop >/dev/null
            rm -rf "$3"
            """
        let command = prefix + ["/bin/sh", "-c", script, bin, data, options, directory]
        let supervisor = try ChildProcess(
            command[0], Array(command.dropFirst()), input: .pipe, output: .pipe, errorOutput: .discard)
        let said = supervisor.output?.readDataToEndOfFileOrLine() ?? ""
        guard said == "ready" else {
            let log = (try? String(contentsOfFile: data + "/server.log", encoding: .utf8)) ?? ""
            throw StartError(description: "the PostgreSQL server did not start: \(log)")
        }
        return RunningServer(supervisor: supervisor, socketDirectory: directory)
    }

    /// Where `initdb` and `pg_ctl` are: Debian's versioned directory, newest first, or `PATH`.
    private static func binaryDirectory() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = "\(root)/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: bin + "/initdb") { return bin }
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map(String.init).first {
            FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
                && FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl")
        }
    }
}

extension FileHandle {
    /// Reads up to the first newline (or the end) and returns the line without it.
    func readDataToEndOfFileOrLine() -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(fileDescriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }
}
