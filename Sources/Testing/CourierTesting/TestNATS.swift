import Foundation

/// A throwaway NATS core server for the tests (Debian's `nats-server`), on a free loopback port,
/// stopped when the test process ends however it ends (its supervisor waits on a pipe from this
/// process). Tests of outages stop it and start it again on the same port.
///
/// ```swift
/// let nats = try await TestNATS.start()
/// let bus = try NATSMessageBus(url: nats.url)
/// await nats.stop()
/// try await nats.start()
/// ```
public final class TestNATS: @unchecked Sendable {
    /// The port it listens on, the same across restarts.
    public let port: Int
    /// `nats://127.0.0.1:<port>`.
    public var url: String { "nats://127.0.0.1:\(port)" }

    // Guarded by `lock`: the running supervisor.
    private let lock = NSLock()
    private var supervisor: ChildProcess?
    private var serverPid: Int32 = 0

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    private init(port: Int) { self.port = port }

    deinit { supervisor?.input?.closeFile() }

    /// Starts a server on a free port.
    /// - Throws: `StartError` when `nats-server` is not installed or does not come up.
    public static func start() async throws -> TestNATS {
        let server = TestNATS(port: try freeLoopbackPort())
        try await server.start()
        return server
    }

    /// Starts the server again after `stop()`, on the same port.
    /// - Throws: `StartError`.
    public func start() async throws {
        guard
            let binary = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/opt/homebrew/bin/nats-server"]
                .first(where: FileManager.default.isExecutableFile(atPath:))
        else { throw StartError(description: "nats-server is not installed; `make test` installs it") }
        // Runs the server, then stops it when this process's end of the pipe closes.
        let script = """
            "$0" -a 127.0.0.1 -p "$1" >/dev/null 2>&1 & pid=$!
            echo "$pid"
            read -r _
            kill "$pid"; wait "$pid"
            """
        let child = try ChildProcess(
            "/bin/sh", ["-c", script, binary, String(port)], input: .pipe, output: .pipe, errorOutput: .discard)
        let pid = Int32(child.output?.readDataToEndOfFileOrLine() ?? "") ?? 0
        lock.withLock {
            supervisor = child
            serverPid = pid
        }
        let port = self.port
        let up = await poll(every: .milliseconds(5), timeout: .seconds(30)) { Self.accepts(port: port) }
        guard up else { throw StartError(description: "nats-server did not listen on port \(port)") }
    }

    /// The running `nats-server`'s resident memory (`VmRSS`), in bytes; 0 when stopped.
    public var residentBytes: Int {
        let pid = lock.withLock { serverPid }
        guard pid > 0, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let row = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(row.split(separator: " ")[1]) ?? 0) * 1024
    }

    /// Stops the server and waits until it has exited.
    public func stop() async {
        guard
            let child = lock.withLock({ () -> ChildProcess? in
                defer { supervisor = nil }; return supervisor
            })
        else { return }
        child.input?.closeFile()
        _ = await runOffPool { child.wait() }
    }

    /// Whether something accepts TCP connections on the loopback `port`.
    private static func accepts(port: Int) -> Bool {
        withLoopbackSocket(port: port) { fd, address, length in connect(fd, address, length) == 0 }
    }
}
